// Two small tools for walking a big tree without holding it in memory: a limiter that
// bounds how many operations run at once, and a bounded channel that makes producers wait
// while the consumer is behind.
import pLimit, { type LimitFunction } from 'p-limit';

/**
 * At most `max` operations at once (p-limit: a caller arriving between a release and the
 * wake-up of the caller that waited for it does not get a slot of its own).
 */
export class Limiter {
  readonly #limit: LimitFunction;

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(`concurrency must be a positive integer, not ${max}`);
    }
    this.#limit = pLimit(max);
  }

  /** Operations waiting for a slot. */
  get queued(): number {
    return this.#limit.pendingCount;
  }

  run<T>(fn: () => Promise<T>): Promise<T> {
    return this.#limit(fn);
  }
}

/** Many producers, one consumer (for await…of). push() waits while `capacity` items wait. */
export class Channel<T> {
  readonly #capacity: number;
  #items: T[] = [];
  #head = 0;
  #closed = false;
  #error: unknown;
  #consumer: (() => void) | undefined;
  readonly #producers: (() => void)[] = [];

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get closed(): boolean {
    return this.#closed;
  }

  async push(item: T): Promise<void> {
    while (!this.#closed && this.#items.length - this.#head >= this.#capacity) {
      await new Promise<void>((r) => this.#producers.push(r));
    }
    if (this.#closed) return; // the consumer stopped: drop silently
    this.#items.push(item);
    this.#wakeConsumer();
  }

  /** Ends the stream; with an error, the consumer's loop throws it after the items queued. */
  close(error?: unknown): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#error = error;
    this.#wakeConsumer();
    for (const wake of this.#producers.splice(0)) wake();
  }

  #wakeConsumer(): void {
    const wake = this.#consumer;
    this.#consumer = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    try {
      while (true) {
        if (this.#head < this.#items.length) {
          const item = this.#items[this.#head] as T;
          this.#items[this.#head++] = undefined as T;
          if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
            this.#items = this.#items.slice(this.#head);
            this.#head = 0;
          }
          this.#producers.shift()?.();
          yield item;
        } else if (this.#closed) {
          if (this.#error !== undefined) throw this.#error;
          return;
        } else {
          await new Promise<void>((r) => (this.#consumer = r));
        }
      }
    } finally {
      // A consumer that stops early (break) stops the producers too.
      this.close();
    }
  }
}

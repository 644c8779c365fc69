// One gate per API key: after a 429 with Retry-After, no request with that key leaves the
// client until the delay has passed (interface document, retry rules). Every call of the
// key awaits the same gate, and the UI can show "paused by the service until …".
import { createHash } from 'node:crypto';
import { realClock, type Clock } from './clock.ts';

export type RateGateListener = (pausedUntil: number | undefined) => void;

export class RateGate {
  #pausedUntil: number | undefined;
  #listeners = new Set<RateGateListener>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #clock: Clock;

  constructor(clock: Clock = realClock) {
    this.#clock = clock;
  }

  /** Epoch milliseconds (on the gate's clock) until which requests are held, or undefined when open. */
  get pausedUntil(): number | undefined {
    if (this.#pausedUntil !== undefined && this.#pausedUntil <= this.#clock.now()) {
      this.#pausedUntil = undefined;
    }
    return this.#pausedUntil;
  }

  /** Holds every request until `until`; never shortens a pause already in force. */
  pauseUntil(until: number): void {
    const current = this.pausedUntil;
    if (current !== undefined && current >= until) return;
    if (until <= this.#clock.now()) return;
    this.#pausedUntil = until;
    this.#emit();
    this.#scheduleReopen();
  }

  /** Resolves when the gate is open; rejects with ABORTED when the signal fires first. */
  async wait(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const until = this.pausedUntil;
      if (until === undefined) return;
      // The pause may be extended while we sleep: loop until it is really over.
      await this.#clock.sleep(until - this.#clock.now(), signal);
    }
  }

  /** Calls `listener` with the new pausedUntil (undefined when the gate reopens). */
  onChange(listener: RateGateListener): () => void {
    this.#listeners.add(listener);
    if (this.#timer === undefined && this.pausedUntil !== undefined) this.#scheduleReopen();
    return () => this.#listeners.delete(listener);
  }

  #scheduleReopen(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#listeners.size === 0) return;
    const check = (): void => {
      this.#timer = undefined;
      const until = this.pausedUntil;
      if (until === undefined) return this.#emit();
      // Re-check at most every 250 ms of real time: correct for an accelerated clock too.
      const remaining = until - this.#clock.now();
      this.#timer = setTimeout(check, Math.min(250, Math.max(1, remaining))).unref();
    };
    check();
  }

  #emit(): void {
    const value = this.#pausedUntil;
    for (const listener of this.#listeners) {
      try {
        listener(value);
      } catch {
        // A faulty UI listener must not break the request path.
      }
    }
  }
}

const gates = new Map<string, RateGate>();

/**
 * The process-wide gate of one credential at one service: a Retry-After from one service says
 * nothing about another that happens to take the same key. Keyed by a hash so the registry
 * never holds the secret itself.
 */
export function rateGateFor(secret: string, clock: Clock = realClock, service = ''): RateGate {
  const id = createHash('sha256').update(service).update('\n').update(secret).digest('hex');
  let gate = gates.get(id);
  if (gate === undefined) {
    gate = new RateGate(clock);
    gates.set(id, gate);
  }
  return gate;
}

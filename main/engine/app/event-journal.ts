// The numbered event stream of one engine start: every event gets the next number, the last
// `capacity` are kept, and a subscriber that comes back with the last number it saw gets
// what it missed in order, or one `resync` when the journal no longer holds all of it.
import type { BridgeEvent, NumberedEvent } from '../../../contract/index.ts';

export interface Replay {
  /** The events after the number given, in order; a lone `resync` when some were dropped. */
  events: NumberedEvent[];
}

export class EventJournal {
  readonly #capacity: number;
  readonly #now: () => number;
  readonly #ring: NumberedEvent[] = [];
  readonly #listeners = new Set<(event: NumberedEvent) => void>();
  readonly #watchers = new Set<() => void>();
  #seq = 0;

  constructor(options: { capacity?: number; now?: () => number } = {}) {
    this.#capacity = options.capacity ?? 1000;
    this.#now = options.now ?? Date.now;
  }

  get lastSeq(): number {
    return this.#seq;
  }

  push(event: BridgeEvent): NumberedEvent {
    const numbered = { ...event, seq: ++this.#seq, at: new Date(this.#now()).toISOString() };
    this.#ring.push(numbered);
    if (this.#ring.length > this.#capacity) this.#ring.shift();
    for (const fn of this.#listeners) fn(numbered);
    return numbered;
  }

  /** What a subscriber that saw `lastSeq` missed. A number from the future (another start) resyncs. */
  since(lastSeq: number): Replay {
    if (lastSeq === this.#seq) return { events: [] };
    const oldest = this.#ring[0]?.seq ?? this.#seq + 1;
    if (lastSeq > this.#seq || lastSeq < oldest - 1) {
      return {
        events: [{ type: 'resync', seq: this.#seq, at: new Date(this.#now()).toISOString() }],
      };
    }
    return { events: this.#ring.filter((event) => event.seq > lastSeq) };
  }

  subscribe(fn: (event: NumberedEvent) => void): () => void {
    this.#listeners.add(fn);
    this.#watched();
    return () => {
      if (this.#listeners.delete(fn)) this.#watched();
    };
  }

  /** How many subscribers read the stream now (a window is open while one does). */
  get subscribers(): number {
    return this.#listeners.size;
  }

  /** Called when a subscriber comes or goes. Returns the unsubscribe. */
  onSubscribers(fn: () => void): () => void {
    this.#watchers.add(fn);
    return () => this.#watchers.delete(fn);
  }

  #watched(): void {
    for (const fn of this.#watchers) fn();
  }
}

// A bridge query kept fresh by the event stream: loaded when something first reads it,
// asked again when an event says it is stale, and let go when nothing reads it any more.
// `createSubscriber` ties the subscription to the readers. The first event of a burst is
// answered at once; the rest of the burst (a folder of 300 files) waits for a short window
// that doubles while the burst lasts (up to `debounceMs`), and one request is in flight at a
// time: a burst costs a few requests, and a lone change shows as soon as it is asked.
import { createSubscriber } from 'svelte/reactivity';
import type { BridgeError, NumberedEvent } from '../../../../contract/index.ts';
import type { EventHub, EventType } from './event-hub.svelte.ts';

export interface LiveQueryOptions<T> {
  hub: EventHub;
  /** The event types that make the answer stale. */
  types: readonly EventType[];
  /** Only events that concern this query (say, of one brand). */
  relevant?: (event: NumberedEvent) => boolean;
  load: () => Promise<{ ok: true; data: T } | { ok: false; error: BridgeError }>;
  /** The longest wait of further events in a burst (they share one request). */
  debounceMs?: number;
}

/** The first quiet window after a request: short, so a second change soon after still shows at once. */
const FIRST_WINDOW_MS = 30;

export class LiveQuery<T> {
  #data = $state.raw<T | null>(null);
  #error = $state.raw<BridgeError | null>(null);
  #loading = $state(false);
  #loadedAt = $state<number | null>(null);
  readonly #options: LiveQueryOptions<T>;
  readonly #subscribe: () => void;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #inFlight: Promise<void> | null = null;
  #again = false;
  /** Events came in the quiet window: one request when it ends. */
  #pending = false;
  #windowMs = FIRST_WINDOW_MS;

  constructor(options: LiveQueryOptions<T>) {
    this.#options = options;
    this.#subscribe = createSubscriber(() => {
      void this.refresh();
      const off = options.hub.on(options.types, (event) => {
        if (event.type === 'resync' || (options.relevant?.(event) ?? true)) this.stale();
      });
      return () => {
        off();
        if (this.#timer !== null) clearTimeout(this.#timer);
        this.#timer = null;
        this.#pending = false;
      };
    });
  }

  get data(): T | null {
    this.#subscribe();
    return this.#data;
  }

  get error(): BridgeError | null {
    this.#subscribe();
    return this.#error;
  }

  /** True only for the first load (a refresh keeps showing the last answer). */
  get loading(): boolean {
    this.#subscribe();
    return this.#loading && this.#data === null;
  }

  get loadedAt(): number | null {
    return this.#loadedAt;
  }

  /** Replaces the answer at once (a command returned the new state). */
  set(data: T): void {
    this.#data = data;
    this.#error = null;
  }

  stale(): void {
    if (this.#timer !== null) {
      this.#pending = true;
      return;
    }
    void this.refresh();
    this.#quiet();
  }

  #quiet(): void {
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (!this.#pending) {
        this.#windowMs = FIRST_WINDOW_MS;
        return;
      }
      this.#pending = false;
      this.#windowMs = Math.min(this.#options.debounceMs ?? 150, this.#windowMs * 2);
      void this.refresh();
      this.#quiet();
    }, this.#windowMs);
  }

  refresh(): Promise<void> {
    if (this.#inFlight !== null) {
      this.#again = true;
      return this.#inFlight;
    }
    this.#loading = true;
    this.#inFlight = (async () => {
      try {
        const result = await this.#options.load();
        if (result.ok) {
          this.#data = result.data;
          this.#error = null;
          this.#loadedAt = Date.now();
        } else {
          this.#error = result.error;
        }
      } finally {
        this.#loading = false;
        this.#inFlight = null;
        if (this.#again) {
          this.#again = false;
          void this.refresh();
        }
      }
    })();
    return this.#inFlight;
  }
}

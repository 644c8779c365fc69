/* eslint-disable svelte/prefer-svelte-reactivity -- registries of listeners, not state the page shows */
// The one subscription to the engine's event stream. State classes ask it for the event
// types that make their data stale; `connected` says whether the stream is live (the page
// shows a banner when the host is gone, and asks every query again when it comes back).
import type { BridgeEvent, NumberedEvent } from '../../../../contract/index.ts';
import type { Bridge } from '../bridge/bridge.ts';

export type EventType = BridgeEvent['type'];
type Listener = (event: NumberedEvent) => void;

export class EventHub {
  connected = $state(false);
  /** Set once the stream has been live at least once (a first failure is not a "drop"). */
  everConnected = $state(false);
  lastSeq = $state(0);
  readonly #bridge: Bridge;
  readonly #listeners = new Map<EventType | '*', Set<Listener>>();
  #stop: (() => void) | null = null;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  start(): void {
    if (this.#stop !== null) return;
    this.#stop = this.#bridge.subscribe(
      (event) => this.#emit(event),
      (connected) => {
        const back = connected && !this.connected && this.everConnected;
        this.connected = connected;
        if (connected) this.everConnected = true;
        // Events may have been missed while the stream was down: everyone asks again.
        if (back) this.#emit({ type: 'resync', seq: this.lastSeq, at: new Date().toISOString() });
      },
    );
  }

  stop(): void {
    this.#stop?.();
    this.#stop = null;
  }

  /** Calls `listener` for each event of these types (and for `resync`). Returns the unsubscribe. */
  on(types: readonly EventType[] | '*', listener: Listener): () => void {
    const keys: (EventType | '*')[] = types === '*' ? ['*'] : [...types, 'resync'];
    for (const key of keys) {
      let set = this.#listeners.get(key);
      if (set === undefined) this.#listeners.set(key, (set = new Set()));
      set.add(listener);
    }
    return () => {
      for (const key of keys) this.#listeners.get(key)?.delete(listener);
    };
  }

  #emit(event: NumberedEvent): void {
    if (event.seq > this.lastSeq) this.lastSeq = event.seq;
    const called = new Set<Listener>();
    for (const key of [event.type, '*'] as const) {
      for (const listener of this.#listeners.get(key) ?? []) {
        if (called.has(listener)) continue;
        called.add(listener);
        try {
          listener(event);
        } catch (error) {
          console.warn('event listener failed', error);
        }
      }
    }
  }
}

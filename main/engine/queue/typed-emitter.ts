// A small typed event emitter: listeners get the payload type of their event name, and a
// throwing listener (a UI bug) cannot break the emitter's caller.

export type Listener<T> = (payload: T) => void;

export class TypedEmitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<Listener<never>>>();
  private readonly onListenerError: (error: unknown) => void;

  constructor(
    onListenerError: (error: unknown) => void = (error) =>
      console.error('event listener failed:', error),
  ) {
    this.onListenerError = onListenerError;
  }

  /** Subscribes; returns the unsubscribe function. */
  on<K extends keyof Events>(name: K, listener: Listener<Events[K]>): () => void {
    let set = this.listeners.get(name);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  emit<K extends keyof Events>(name: K, payload: Events[K]): void {
    const set = this.listeners.get(name);
    if (set === undefined) return;
    for (const listener of [...set]) {
      try {
        (listener as Listener<Events[K]>)(payload);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}

// A reader of runes state outside a component, as a component reads it: inside an effect, so
// `createSubscriber` sees a reader (and lets go when it stops). Each run's value is kept.
import { flushSync } from 'svelte';

export interface Reader<T> {
  /** Every value the effect saw, in order. */
  readonly seen: T[];
  readonly last: T;
  stop(): void;
}

export function reader<T>(read: () => T): Reader<T> {
  const seen: T[] = [];
  const stop = $effect.root(() => {
    $effect(() => {
      seen.push(read());
    });
  });
  flushSync();
  return {
    seen,
    get last() {
      flushSync();
      return seen.at(-1) as T;
    },
    stop() {
      stop();
      flushSync();
    },
  };
}

// Time for the queue: "now" for due times and leases, and timers to wake up. Injected so
// tests step time instead of sleeping.

export interface QueueClock {
  now(): number;
  /** Calls fn after ms; returns a function that cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

export const systemClock: QueueClock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => {
    // Node caps timers at 2^31-1 ms; a longer wait just wakes early and re-plans.
    const timer = setTimeout(fn, Math.min(Math.max(0, ms), 2 ** 31 - 1));
    return () => clearTimeout(timer);
  },
};

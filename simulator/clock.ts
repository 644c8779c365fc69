// The simulated clock. Every timer of the simulator (brand analysis, exports, images, edits,
// long-poll timeouts, token expiry) runs on it, so tests can speed time up (`speed`) or move it
// only by hand (`manual`, then `advance(ms)`), and never sleep for real.

export interface ClockOptions {
  /** Simulated milliseconds per real millisecond; default 1. Ignored when manual. */
  speed?: number;
  /** Time moves only through advance(). */
  manual?: boolean;
  /** Simulated epoch at start (ms since 1970); default the real Date.now(). */
  startAt?: number;
}

export interface TimerHandle {
  cancel(): void;
}

interface Timer {
  due: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

export class SimClock {
  readonly manual: boolean;
  #speed: number;
  #baseReal: number;
  #baseSim: number;
  #timers: Timer[] = [];
  #seq = 0;
  #real: NodeJS.Timeout | undefined;
  #firing = false;
  #disposed = false;
  /** While a timer runs, time stands at its due moment, so timers it starts count from there. */
  #override: number | null = null;

  constructor(opts: ClockOptions = {}) {
    const speed = opts.speed ?? 1;
    if (!(speed > 0) || !Number.isFinite(speed)) {
      throw new Error(`clock speed must be a positive number, got ${String(opts.speed)}`);
    }
    this.manual = opts.manual ?? false;
    this.#speed = speed;
    this.#baseReal = performance.now();
    this.#baseSim = opts.startAt ?? Date.now();
  }

  get speed(): number {
    return this.#speed;
  }

  /** Simulated time in ms since 1970. */
  now(): number {
    if (this.#override !== null) return this.#override;
    if (this.manual) return this.#baseSim;
    return this.#baseSim + (performance.now() - this.#baseReal) * this.#speed;
  }

  iso(at: number = this.now()): string {
    return new Date(Math.floor(at)).toISOString();
  }

  /** Changes the speed from now on; simulated time already passed is kept. */
  setSpeed(speed: number): void {
    if (!(speed > 0) || !Number.isFinite(speed)) throw new Error('clock speed must be positive');
    this.#baseSim = this.now();
    this.#baseReal = performance.now();
    this.#speed = speed;
    this.#arm();
  }

  /** Runs fn after delayMs of simulated time. */
  setTimeout(fn: () => void, delayMs: number): TimerHandle {
    const timer: Timer = {
      due: this.now() + Math.max(0, delayMs),
      seq: this.#seq++,
      fn,
      cancelled: false,
    };
    // Keep the list sorted by (due, seq): timers due at the same moment fire in creation order.
    let i = this.#timers.length;
    while (i > 0) {
      const prev = this.#timers[i - 1] as Timer;
      if (prev.due < timer.due || (prev.due === timer.due && prev.seq < timer.seq)) break;
      i--;
    }
    this.#timers.splice(i, 0, timer);
    if (i === 0) this.#arm();
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  /** Moves simulated time forward by ms and fires every timer that became due, in order. */
  advance(ms: number): void {
    if (!(ms >= 0) || !Number.isFinite(ms))
      throw new Error('advance needs a non-negative number of ms');
    if (this.manual) {
      const target = this.#baseSim + ms;
      this.#fire(target);
      this.#baseSim = target;
    } else {
      this.#baseSim += ms;
      this.#fire();
    }
  }

  /** Number of timers still waiting (cancelled ones excluded). */
  pending(): number {
    return this.#timers.filter((t) => !t.cancelled).length;
  }

  dispose(): void {
    this.#disposed = true;
    if (this.#real) clearTimeout(this.#real);
    this.#timers = [];
  }

  #fire(until?: number): void {
    if (this.#firing) return; // advance() from inside a timer: the outer loop picks the rest up
    this.#firing = true;
    const limit = until ?? this.now();
    try {
      for (;;) {
        const first = this.#timers[0];
        if (!first || first.due > limit) break;
        this.#timers.shift();
        if (first.cancelled) continue;
        this.#override = first.due;
        try {
          first.fn();
        } finally {
          this.#override = null;
        }
      }
    } finally {
      this.#firing = false;
    }
    this.#arm();
  }

  #arm(): void {
    if (this.#real) {
      clearTimeout(this.#real);
      this.#real = undefined;
    }
    if (this.manual || this.#disposed) return;
    while (this.#timers[0]?.cancelled) this.#timers.shift();
    const first = this.#timers[0];
    if (!first) return;
    const realDelay = Math.max(0, (first.due - this.now()) / this.#speed);
    this.#real = setTimeout(() => this.#fire(), Math.min(Math.ceil(realDelay), 2 ** 31 - 1));
    this.#real.unref();
  }
}

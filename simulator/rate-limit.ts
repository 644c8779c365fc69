// Rate limiting per API key in a sliding window (GAPS.md: 120 requests a minute by default).
// The window runs on real time by default: Retry-After is what a client really waits.

export interface RateLimitOptions {
  max: number;
  windowMs: number;
  /** "real" (default) or "simulated": which clock the window runs on. */
  clock?: 'real' | 'simulated';
}

export type RateDecision = { ok: true } | { ok: false; retryAfterS: number };

export class SlidingWindowLimiter {
  readonly max: number;
  readonly windowMs: number;
  #now: () => number;
  #hits = new Map<string, number[]>();

  constructor(opts: RateLimitOptions, now: () => number) {
    if (!Number.isInteger(opts.max) || opts.max < 1)
      throw new Error('rateLimit.max must be a positive integer');
    if (!(opts.windowMs > 0)) throw new Error('rateLimit.windowMs must be positive');
    this.max = opts.max;
    this.windowMs = opts.windowMs;
    this.#now = now;
  }

  /** Counts a request of key when allowed; a refused request does not count. */
  hit(key: string): RateDecision {
    const now = this.#now();
    let hits = this.#hits.get(key);
    if (!hits) {
      hits = [];
      this.#hits.set(key, hits);
    }
    let drop = 0;
    while (drop < hits.length && (hits[drop] as number) <= now - this.windowMs) drop++;
    if (drop > 0) hits.splice(0, drop);
    if (hits.length >= this.max) {
      const oldest = hits[hits.length - this.max] as number;
      return {
        ok: false,
        retryAfterS: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)),
      };
    }
    hits.push(now);
    return { ok: true };
  }

  reset(): void {
    this.#hits.clear();
  }
}

/** A limiter on the clock its options name: real time, or the simulated clock simNow. */
export function createLimiter(opts: RateLimitOptions, simNow: () => number): SlidingWindowLimiter {
  return new SlidingWindowLimiter(opts, opts.clock === 'simulated' ? simNow : () => Date.now());
}

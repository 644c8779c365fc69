// Rate limiting per API key (120 requests a minute by default, simulator/INTERFACE.md): a sliding window of
// `max` requests per `windowMs`, or, with `burst`, a token bucket that holds `burst` requests
// and refills `max` per `windowMs` (1,000 an hour with a burst of 100). The interface gives no
// numbers, so a client must not depend on any of them. The window runs on real time by
// default: Retry-After is what a client really waits.

export interface RateLimitOptions {
  max: number;
  windowMs: number;
  /** A token bucket of this many requests, refilled at `max` per `windowMs`, instead of a window. */
  burst?: number;
  /** "real" (default) or "simulated": which clock the window runs on. */
  clock?: 'real' | 'simulated';
}

/** What the server asks of a limiter: one decision per request of a key. */
export interface RateLimiter {
  readonly max: number;
  readonly windowMs: number;
  hit(key: string): RateDecision;
  reset(): void;
}

export type RateDecision = { ok: true } | { ok: false; retryAfterS: number };

export class SlidingWindowLimiter implements RateLimiter {
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

/** A bucket of `burst` requests per key, refilled at `max` per `windowMs`. */
export class TokenBucketLimiter implements RateLimiter {
  readonly max: number;
  readonly windowMs: number;
  readonly burst: number;
  #now: () => number;
  #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(opts: RateLimitOptions & { burst: number }, now: () => number) {
    if (!Number.isInteger(opts.max) || opts.max < 1)
      throw new Error('rateLimit.max must be a positive integer');
    if (!(opts.windowMs > 0)) throw new Error('rateLimit.windowMs must be positive');
    if (!Number.isInteger(opts.burst) || opts.burst < 1)
      throw new Error('rateLimit.burst must be a positive integer');
    this.max = opts.max;
    this.windowMs = opts.windowMs;
    this.burst = opts.burst;
    this.#now = now;
  }

  hit(key: string): RateDecision {
    const now = this.#now();
    const perMs = this.max / this.windowMs;
    const bucket = this.#buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    this.#buckets.set(key, bucket);
    if (bucket.tokens < 1 - 1e-9) {
      return { ok: false, retryAfterS: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)) };
    }
    bucket.tokens -= 1;
    return { ok: true };
  }

  reset(): void {
    this.#buckets.clear();
  }
}

/** A limiter on the clock its options name: real time, or the simulated clock simNow. */
export function createLimiter(opts: RateLimitOptions, simNow: () => number): RateLimiter {
  const now = opts.clock === 'simulated' ? simNow : () => Date.now();
  if (opts.burst !== undefined) return new TokenBucketLimiter({ ...opts, burst: opts.burst }, now);
  return new SlidingWindowLimiter(opts, now);
}

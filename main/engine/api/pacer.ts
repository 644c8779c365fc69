// A pacer per API key, shared by every call of every job (in the spirit of rclone's): at
// full speed until the service first answers 429; then it keeps its own sliding window a
// little below what the service was seen to allow (the requests sent in the last window
// when it refused), so the next minutes do not draw the same 429s again. Once the service
// has gone two windows without refusing, the allowance grows again, window by window,
// until the pacer is off. The Retry-After gate still holds every request during a pause.
//
// Near the documented limit (GAPS.md: 120 a minute) it goes carefully: one request in
// flight at a time, so that reaching the limit costs one 429, not one per job in flight
// (six uploads at once drew six). A service that lets more through than documented ends
// the care until it refuses again.
import { realClock, type Clock } from './clock.ts';
import type { RateGate } from './rate-gate.ts';

/** The service's window (GAPS.md: 120 requests a minute). */
const WINDOW_MS = 60_000;
/** Aim below the rate seen when refused. */
const HEADROOM = 0.95;
/**
 * Never below the documented limit (GAPS.md: 120 a minute) less the headroom: a 429 at a
 * lower rate (a burst of the service's own, a fault) is a pause, which the Retry-After gate
 * and the call's backoff handle; it does not make the key slower for good.
 */
const FLOOR = Math.floor(120 * HEADROOM);
/** After a quiet spell: the allowance grows by this share, once per window. */
const RECOVERY = 0.1;
/**
 * How long without a 429 before growing: two windows at first, twice as long after each
 * growth the service refused (a limit that is real is probed ever more rarely).
 */
const FIRST_QUIET_MS = 2 * WINDOW_MS;
/** An allowance this large is no limit at all: the pacer is off again. */
const OFF_ABOVE = 10_000;
/**
 * A request counts with the service from when it arrives, a little after it left here: a
 * slot is taken as free only this long after the window has passed over its send.
 */
const ARRIVAL_MARGIN_MS = 1_000;
/** Refusals this close together are one burst (the calls in flight): they do not compound. */
const SAME_BURST_MS = 2_000;
/** The documented limit (GAPS.md, Rate-limit thresholds): requests a window per key. */
const DOCUMENTED_LIMIT = 120;
/** From this many requests in the window on, one at a time until the service answers. */
const CAREFUL_FROM = FLOOR;

export class Pacer {
  readonly #clock: Clock;
  /** When each recent request left, oldest first (one window's worth). */
  #sent: number[] = [];
  #allowance: number | undefined;
  #lastRefusedAt: number | undefined;
  #lastRaisedAt = 0;
  #quietMs = FIRST_QUIET_MS;
  #refusals = 0;
  /** Requests that took their turn and have not been answered yet. */
  #inFlight = 0;
  /** Wakes the requests waiting for the one in flight (careful mode). */
  #waiting: Array<() => void> = [];
  /** The service let more than the documented limit through in one window: no care needed. */
  #beyondDocumented = false;

  /** Off: never waits (benchmarks compare with it; `pace: false` in the client options). */
  readonly off: boolean;

  constructor(clock: Clock = realClock, options: { off?: boolean } = {}) {
    this.#clock = clock;
    this.off = options.off === true;
  }

  /** Requests a window this pacer lets leave (undefined: not pacing). */
  get allowance(): number | undefined {
    return this.#allowance;
  }

  /** 429 answers seen by this key's calls. */
  get refusals(): number {
    return this.#refusals;
  }

  /**
   * Waits for this request's turn and counts it as sent; rejects when the signal fires.
   * Returns the release to call once the request is over (answered, refused, failed or never
   * sent). A long poll (`holds`: the server keeps it open for minutes) is not waited for in
   * careful mode: it would hold every other request that long.
   */
  async turn(signal?: AbortSignal, options: { holds?: boolean } = {}): Promise<() => void> {
    if (this.off) return noop;
    for (;;) {
      const now = this.#clock.now();
      this.#trim(now);
      const full = this.#allowance !== undefined && this.#sent.length >= this.#allowance;
      if (!full && !options.holds && this.#inFlight > 0 && this.#careful()) {
        await this.#nextAnswer(signal);
        continue;
      }
      if (!full) {
        this.#sent.push(now);
        if (options.holds) return noop;
        this.#inFlight++;
        let released = false;
        return () => {
          if (released) return;
          released = true;
          this.#release();
        };
      }
      // Full: wait until the oldest request of the window leaves it.
      const frees = (this.#sent[0] as number) + WINDOW_MS + ARRIVAL_MARGIN_MS;
      await this.#clock.sleep(frees - now + 1, signal);
    }
  }

  #release(): void {
    this.#inFlight--;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const wake of waiting) wake();
  }

  /** Near the documented limit, and the service has not shown it allows more. */
  #careful(): boolean {
    return !this.#beyondDocumented && this.#sent.length >= CAREFUL_FROM;
  }

  #nextAnswer(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = (): void => {
        this.#waiting = this.#waiting.filter((wake) => wake !== done);
        reject(signal?.reason);
      };
      const done = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(done);
    });
  }

  /** The service refused a request (429): keep below the rate it let through. */
  refused(): void {
    if (this.off) return;
    const now = this.#clock.now();
    const sameBurst =
      this.#lastRefusedAt !== undefined && now - this.#lastRefusedAt < SAME_BURST_MS;
    this.#refusals++;
    this.#lastRefusedAt = now;
    this.#beyondDocumented = false;
    // A refused request did not count with the service: what it allowed is the rest.
    this.#sent.pop();
    this.#trim(now);
    const target = Math.max(FLOOR, Math.floor(this.#sent.length * HEADROOM));
    if (this.#allowance === undefined) this.#allowance = target;
    else if (!sameBurst) {
      // Refused soon after growing: probe more rarely from now on.
      if (now - this.#lastRaisedAt < 2 * WINDOW_MS) this.#quietMs *= 2;
      // Refused while paced: the allowance was too high.
      this.#allowance = Math.max(FLOOR, Math.min(target, Math.floor(this.#allowance * HEADROOM)));
    }
  }

  /** A request went through: after a whole window without 429, allow a little more. */
  succeeded(): void {
    if (this.off) return;
    const now = this.#clock.now();
    if (!this.#beyondDocumented && this.#sentWithin(now, WINDOW_MS) > DOCUMENTED_LIMIT) {
      this.#beyondDocumented = true;
    }
    if (this.#allowance === undefined || this.#lastRefusedAt === undefined) return;
    if (now - this.#lastRefusedAt < this.#quietMs || now - this.#lastRaisedAt < WINDOW_MS) return;
    this.#lastRaisedAt = now;
    this.#allowance = Math.ceil(this.#allowance * (1 + RECOVERY));
    if (this.#allowance > OFF_ABOVE) this.#allowance = undefined;
  }

  /** Requests sent in the last `ms`. */
  #sentWithin(now: number, ms: number): number {
    let count = 0;
    for (let i = this.#sent.length - 1; i >= 0 && (this.#sent[i] as number) > now - ms; i--)
      count++;
    return count;
  }

  #trim(now: number): void {
    let drop = 0;
    const before = now - WINDOW_MS - ARRIVAL_MARGIN_MS;
    while (drop < this.#sent.length && (this.#sent[drop] as number) <= before) drop++;
    if (drop > 0) this.#sent.splice(0, drop);
  }
}

const noop = (): void => {};

const pacers = new WeakMap<RateGate, Pacer>();

/** The pacer of a key, kept with its rate gate (one per credential, process-wide). */
export function pacerOf(gate: RateGate, clock: Clock = realClock): Pacer {
  let pacer = pacers.get(gate);
  if (pacer === undefined) {
    pacer = new Pacer(clock);
    pacers.set(gate, pacer);
  }
  return pacer;
}

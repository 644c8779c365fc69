// A pacer per API key, shared by every call of every job (in the spirit of rclone's). The
// interface gives no numbers for the rate limit, so the pacer assumes none: it runs at full
// speed until the service first answers 429, and learns the limit from what the service says.
//
// - The count let through before a refusal is the allowance: the requests sent since the
//   pacer started watching (the first request, or the end of the last pause) before the
//   refused one.
// - The refusal's Retry-After tells when the window frees: the window is the time from the
//   start of that count to the moment the service lets requests through again.
// - The count may also start later, at a request sent after a quiet gap at least as long as
//   the window it would begin (from that request to when the service frees): such a window
//   held nothing before it. One refusal cannot tell these readings apart (a burst after a slow
//   trickle reads fast from the burst, slow from the trickle's start): the fastest is taken,
//   and the slower ones are kept for the next refusal (below). Counted from the first request
//   only, a burst after hours of a trickle read as the trickle's rate. A trickle denser than
//   the service's window is still read from its start, too slow (see docs/service.md).
//
// From then on it keeps its own sliding window of that length with that many requests. A refusal
// while paced with the window full learns again from the requests since the last pause, and keeps
// the reading if it is clearly slower (a service with a burst and a slow refill teaches the burst
// first, then the refill; a reading of a few requests is stretched a little, their tokens came in
// fractions). A little slower, read over a whole window since the pause, it slows the pace to that
// rate in the same window. A refusal while the window (the refused request in it) was far from
// full, or before anything got through since the pause, teaches nothing (a fault, a pause the
// service extends): the gate holds the pause. While the first refusal's slower readings are kept
// (until a whole allowance went through), a refusal steps down to the next clearly slower one whose
// window was full, when that is faster than what it reads itself: the service's window was longer
// than the stretch read, and still held the trickle before it. After a long quiet spell (ten
// windows, at least half an hour) the rate grows a little, window by window, so that a limit raised
// meanwhile is found again; a growth the service refuses makes the next probe wait twice as long. A
// 429 without Retry-After teaches nothing: the calls back off on their own.
import { realClock, type Clock } from './clock.ts';
import type { RateGate } from './rate-gate.ts';

/**
 * Refusals this close together are one burst (the calls in flight): the first teaches; the
 * latest time one of them tells starts the next count.
 */
const SAME_BURST_MS = 2_000;
/** Aim this share of the allowance learned. */
const HEADROOM = 1;
/** A reading of FEW requests taken while already paced is stretched by this (see refused()). */
const PACED_MARGIN = 1.25;
const FEW = 5;
/** The window held under this share of the allowance (the refused request too): not the pace. */
const NEAR_FULL = 0.8;
/** A reading while paced lowers the rate only below this share of it. */
const SLOWER = 0.7;
/** After a quiet spell: the allowance grows by this share, once per window. */
const RECOVERY = 0.1;
/** Quiet spell before the first growth: this many windows, and at least QUIET_MIN_MS. */
const QUIET_WINDOWS = 10;
const QUIET_MIN_MS = 30 * 60_000;
/** A rate this high (1,000 a second) is no limit at all: the pacer is off again. */
const OFF_ABOVE_PER_MS = 1;
/**
 * A request counts with the service from when it arrives, a little after it left here: a
 * slot is taken as free only this share of the window (at most a second) after it passed.
 */
const ARRIVAL_SHARE = 0.01;
const ARRIVAL_MAX_MS = 1_000;
/** Retry-After comes in whole seconds: the wait it states may be this much longer than the service's. */
const RETRY_AFTER_GRAIN_MS = 1_000;
/** A count may begin after a gap only where the window's length before it held this share of it at most. */
const QUIET_SHARE = 0.5;
/** Slower readings of one refusal are kept a tenth apart at least. */
const THIN = 0.9;
/** Sends remembered before any limit is learned (the first window's worth, and more). */
const MAX_KEPT = 20_000;

export interface Turn {
  /** Gives the turn back once the request is over (answered, refused, failed, never sent). */
  (): void;
  /** When this request took its turn (on the pacer's clock). */
  readonly at: number;
}

export class Pacer {
  readonly #clock: Clock;
  /** When each request left that counts with the service (not refused), oldest first. */
  #sent: number[] = [];
  /** The learned limit: `allowance` requests per `windowMs` (undefined: not pacing). */
  #allowance: number | undefined;
  #windowMs = 0;
  /** Where the count of requests the service let through starts; answers since then. */
  #epochStart: number | undefined;
  #acceptedSinceEpoch = 0;
  #lastRefusedAt: number | undefined;
  #lastRaisedAt = 0;
  #quietFactor = 1;
  #refusals = 0;
  /**
   * Slower readings the first refusal also allowed, fastest first (see #firstReading); dropped
   * once a whole allowance went through after the pause.
   */
  #slower: Reading[] = [];

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

  /** The window the allowance counts in, as learned from the service (0: none learned). */
  get windowMs(): number {
    return this.#allowance === undefined ? 0 : this.#windowMs;
  }

  /** 429 answers seen by this key's calls. */
  get refusals(): number {
    return this.#refusals;
  }

  /**
   * Waits for this request's turn and counts it as sent; rejects when the signal fires.
   * Returns the release to call once the request is over. A long poll (`holds`) takes its turn
   * like any other request: it counts with the service when it arrives.
   */
  async turn(signal?: AbortSignal, _options: { holds?: boolean } = {}): Promise<Turn> {
    if (this.off) return noTurn(this.#clock.now());
    for (;;) {
      const now = this.#clock.now();
      this.#trim(now);
      const allowance = this.#allowance;
      if (allowance === undefined || this.#inWindow(now) < allowance) {
        this.#sent.push(now);
        this.#epochStart ??= now;
        return noTurn(now);
      }
      // Full: wait until the oldest request of the window leaves it.
      const frees = (this.#sent[this.#sent.length - allowance] as number) + this.#span();
      await this.#clock.sleep(Math.max(1, frees - now + 1), signal);
    }
  }

  /**
   * The service refused a request (429). `retryAfterMs`: when it said it lets requests
   * through again; `sentAt`: when the refused request took its turn (it does not count).
   */
  refused(retryAfterMs?: number, sentAt?: number): void {
    if (this.off) return;
    const now = this.#clock.now();
    this.#refusals++;
    this.#forget(sentAt);
    const sameBurst =
      this.#lastRefusedAt !== undefined && now - this.#lastRefusedAt < SAME_BURST_MS;
    this.#lastRefusedAt = now;
    if (retryAfterMs === undefined) return;
    const frees = now + Math.max(0, retryAfterMs);
    if (sameBurst) {
      // A call of the same burst told a later time (requests in flight let through after the
      // first refusal took what it freed): the count starts then, as the gate's pause ends. The
      // refill read from the pause's end otherwise counted seconds when nothing could be sent.
      if (this.#epochStart !== undefined && frees > this.#epochStart) this.#setEpoch(frees);
      return;
    }
    const start = this.#epochStart ?? now;
    // Only what left before the refused request: those in flight with it were not answered yet.
    const before = sentAt ?? now;
    const current = this.#allowance === undefined ? undefined : this.#reading();
    if (current !== undefined && now - this.#lastRaisedAt < 2 * current.windowMs) {
      // Refused soon after growing: probe more rarely from now on.
      this.#quietFactor *= 2;
    }
    // The next count starts when the service lets requests through again.
    const learned =
      current === undefined
        ? this.#firstReading(start, before, frees)
        : this.#pacedReading(current, start, before, frees);
    this.#setEpoch(frees);
    // A refusal while paced means the rate was too high: only a slower reading is kept. A
    // service with a burst teaches its burst first, then its refill.
    if (learned !== undefined && (current === undefined || rate(learned) < rate(current))) {
      this.#allowance = learned.allowance;
      this.#windowMs = learned.windowMs;
    }
  }

  #reading(): Reading {
    return { allowance: this.#allowance as number, windowMs: this.#windowMs };
  }

  /**
   * The first refusal: what the service let through since the count began, in the time until
   * it frees again. The count may also have begun at a later send that followed a quiet gap at
   * least as long as the window it would begin (that send to `frees`): such a window held
   * nothing before it. One refusal cannot tell these readings apart (a burst after a slow
   * trickle reads as a high rate from the burst, a low one from the trickle's start), so the
   * fastest is taken and the slower ones are kept: a refusal just after the pause steps down to
   * them. Counted from the first request only, a burst after hours of one request a minute read
   * as the hours' average.
   */
  #firstReading(start: number, before: number, frees: number): Reading {
    let first = 0;
    while (first < this.#sent.length && (this.#sent[first] as number) < start) first++;
    let last = first;
    while (last < this.#sent.length && (this.#sent[last] as number) < before) last++;
    const windowFrom = (at: number): number => Math.max(1_000, Math.ceil(frees - at));
    // Answers since the count began may outnumber the sends remembered (those taken before it).
    const counted = Math.max(last - first, this.#acceptedSinceEpoch);
    const readings: Reading[] = [
      { allowance: Math.max(1, Math.floor(counted * HEADROOM)), windowMs: windowFrom(start) },
    ];
    // The first send inside the window's length before `at` (both move forward with `at`).
    let prior = 0;
    for (let i = first + 1; i < last; i++) {
      const at = this.#sent[i] as number;
      const windowMs = windowFrom(at);
      // Quiet for as long as the window this count would have: nothing before `at` could be in
      // it. A shorter gap (a trickle inside the service's window) starts no count: read from
      // there, the window still held what came before it, and the rate read was too fast.
      if (at - (this.#sent[i - 1] as number) < windowMs - RETRY_AFTER_GRAIN_MS) continue;
      // And busy after quiet: a stall within a burst, just before a refusal whose wait is short,
      // starts no count (on a clock many times real time, tens of milliseconds read as seconds).
      while ((this.#sent[prior] as number) < at - windowMs) prior++;
      if (i - prior > QUIET_SHARE * (last - i)) continue;
      readings.push({ allowance: Math.max(1, Math.floor((last - i) * HEADROOM)), windowMs });
    }
    readings.sort((a, b) => rate(b) - rate(a));
    // Kept a tenth apart at least: a long trickle offers thousands that differ by little.
    this.#slower = [];
    for (const r of readings.slice(1)) {
      const kept = this.#slower.at(-1) ?? (readings[0] as Reading);
      if (rate(r) <= THIN * rate(kept)) this.#slower.push(r);
    }
    return readings[0] as Reading;
  }

  /**
   * A refusal while paced. Refused well below the allowance, or before anything got through
   * since the last pause: that says nothing of the rate (a fault, a pause the service
   * extends); the gate holds the pause. Within the first window after a pause the window is
   * still filling (the sends from before it have left): its count then says nothing of the
   * pace (a bucket's refill refuses there, with the window half empty), and is read. A reading
   * of a few requests (a bucket's refill, whose tokens came in fractions) is stretched a little,
   * so the next is not a third refusal. A reading a little below the pace takes no step down;
   * within the first window it is no news (the wait itself makes it so), after a whole window
   * its rate is taken. Otherwise, when the first refusal left slower readings, the next of
   * them is taken instead if it is faster than this one.
   */
  #pacedReading(
    current: Reading,
    start: number,
    before: number,
    frees: number,
  ): Reading | undefined {
    let counted = this.#sentBetween(start, before);
    const nothingThrough = counted === 0 && this.#acceptedSinceEpoch === 0;
    const filling = before - start < current.windowMs;
    // The refused request took a slot of the window too: paced at one a window, the window is
    // empty whenever one leaves, and a refusal at the pace read as far below it (refused at
    // nearly every slot from then on).
    const belowPace = !filling && this.#inWindow(before) + 1 < NEAR_FULL * current.allowance;
    let learned: Reading | undefined;
    if (!nothingThrough && !belowPace) {
      counted = Math.max(counted, this.#acceptedSinceEpoch);
      const margin = counted < FEW ? PACED_MARGIN : 1;
      const reading = {
        allowance: Math.max(1, Math.floor(counted * HEADROOM)),
        windowMs: Math.max(1_000, Math.ceil((frees - start) * margin)),
      };
      if (rate(reading) > SLOWER * rate(current)) {
        // Close to the pace: no step down. Read over a whole window since the pause and slower,
        // its rate is taken, in the window already kept (the count may span many windows):
        // the pace let the service refuse again. Left as it was, a pace a little too fast was
        // refused again every few dozen requests, each refusal a little slower than the pace.
        if (filling || rate(reading) >= rate(current)) return undefined;
        return {
          allowance: current.allowance,
          windowMs: Math.ceil(current.allowance / rate(reading)),
        };
      }
      learned = reading;
    }
    const next = this.#nextSlower(current, before);
    if (next !== undefined && (learned === undefined || rate(next) > rate(learned))) return next;
    return learned;
  }

  /**
   * The next clearly slower reading the first refusal allowed that explains this refusal: its
   * window, ending when the refused request left, was full. Those closer to the rate are
   * dropped (a little slower is no news, as below), and so are those that would have had room
   * for the request: a bucket's refill refuses with the burst's window far from full, and is
   * read from the refusal itself.
   */
  #nextSlower(current: Reading, before: number): Reading | undefined {
    while (this.#slower.length > 0) {
      const next = this.#slower.shift() as Reading;
      if (rate(next) > SLOWER * rate(current)) continue;
      if (this.#sentBetween(before - next.windowMs, before) >= next.allowance) return next;
    }
    return undefined;
  }

  #setEpoch(at: number): void {
    this.#epochStart = at;
    this.#acceptedSinceEpoch = 0;
  }

  /** A request went through: after a long quiet spell, allow a little more. */
  succeeded(): void {
    if (this.off) return;
    const now = this.#clock.now();
    if (this.#epochStart !== undefined && now >= this.#epochStart) this.#acceptedSinceEpoch++;
    // A whole allowance let through since the pause: the reading held.
    if (this.#slower.length > 0 && this.#acceptedSinceEpoch >= (this.#allowance ?? Infinity))
      this.#slower = [];
    if (this.#allowance === undefined || this.#lastRefusedAt === undefined) return;
    const quiet = Math.max(QUIET_MIN_MS, QUIET_WINDOWS * this.#windowMs) * this.#quietFactor;
    if (now - this.#lastRefusedAt < quiet || now - this.#lastRaisedAt < this.#windowMs) return;
    this.#lastRaisedAt = now;
    // A little faster: the same allowance in a shorter window (an allowance of one or two
    // cannot grow by a tenth).
    this.#windowMs = Math.max(1, Math.floor(this.#windowMs / (1 + RECOVERY)));
    if (this.#allowance / this.#windowMs > OFF_ABOVE_PER_MS) this.#allowance = undefined;
  }

  /** A turn taken and not used (the gate closed meanwhile): it does not count. */
  unused(turn: Turn): void {
    if (!this.off) this.#forget(turn.at);
  }

  /** The refused request does not count with the service. */
  #forget(sentAt: number | undefined): void {
    const at = sentAt === undefined ? -1 : this.#sent.lastIndexOf(sentAt);
    if (at >= 0) this.#sent.splice(at, 1);
    else this.#sent.pop();
  }

  /** Sends that left from `from` on, and before `to`. */
  #sentBetween(from: number, to: number): number {
    let count = 0;
    for (const at of this.#sent) if (at >= from && at < to) count++;
    return count;
  }

  /** Sends that still hold a slot of the window. */
  #inWindow(now: number): number {
    const from = now - this.#span();
    let count = 0;
    for (let i = this.#sent.length - 1; i >= 0 && (this.#sent[i] as number) > from; i--) count++;
    return count;
  }

  /** How long a send holds its slot: the window, and a little for its way to the service. */
  #span(): number {
    return this.#windowMs + Math.min(ARRIVAL_MAX_MS, this.#windowMs * ARRIVAL_SHARE);
  }

  #trim(now: number): void {
    // Kept: what the window holds, and what the next refusal counts (since the epoch).
    // While slower readings may still be taken, the sends their longer windows hold are kept.
    const keepMs = this.#slower.reduce((ms, r) => Math.max(ms, r.windowMs), this.#span());
    const windowStart = this.#allowance === undefined ? -Infinity : now - keepMs;
    const keepFrom = Math.min(windowStart, this.#epochStart ?? -Infinity);
    let drop = 0;
    while (drop < this.#sent.length && (this.#sent[drop] as number) < keepFrom) drop++;
    drop = Math.max(drop, this.#sent.length - MAX_KEPT);
    if (drop > 0) this.#sent.splice(0, drop);
  }
}

/** A reading of the service's limit: `allowance` requests in `windowMs`. */
interface Reading {
  allowance: number;
  windowMs: number;
}

/** Requests per millisecond. */
function rate(reading: Reading): number {
  return reading.allowance / reading.windowMs;
}

function noTurn(at: number): Turn {
  return Object.assign(() => {}, { at });
}

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

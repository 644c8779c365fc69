// The pacer per key learns the service's limit from what the service says, against the
// simulator configured with limits the client was never tuned for (the interface gives no
// numbers): a sliding window of 30 per 5 s and a token bucket of 600 an hour with a burst of
// 20, over real HTTP, the client on the simulator's accelerated clock. Speed is the bench's
// business (npm run bench pacer); here: how many times the service had to refuse, and what
// the pacer learned.
import { afterEach, expect, test } from 'vitest';
import { Pacer, pacerOf, RateGate, scaledClock } from '../../main/engine/api/index.ts';
import type { Clock } from '../../main/engine/api/index.ts';
import type { LogEntry } from '../../simulator/request-log.ts';
import { createLimiter } from '../../simulator/rate-limit.ts';
import type { RateLimiter, RateLimitOptions } from '../../simulator/rate-limit.ts';
import { clientFor, startSim } from './helpers.ts';

let sim: Awaited<ReturnType<typeof startSim>> | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** Refusals closer than 2 s, or within the wait the service asked for, are one episode. */
function episodes(log: LogEntry[]): number {
  let count = 0;
  let ends = -Infinity;
  for (const e of log.filter((x) => x.status === 429)) {
    if (e.simAt > ends) count++;
    ends = Math.max(ends, e.simAt + Math.max(2_000, (e.retryAfter ?? 0) * 1000));
  }
  return count;
}

/** `jobs` clients sharing one key and gate, as the queue runs them, making `total` calls. */
async function run(speed: number, jobs: number, total: number): Promise<RateGate> {
  const clock = scaledClock(speed);
  const gate = new RateGate(clock);
  const clients = Array.from({ length: jobs }, () =>
    clientFor(sim!, {
      rateGate: gate,
      clock,
      retry: { limit: 2, rateLimitedLimit: 50, baseDelayMs: 1, maxDelayMs: 5 },
    }),
  );
  let left = total;
  await Promise.all(
    clients.map(async (client) => {
      while (left > 0) {
        left--;
        await client.getCredits();
      }
    }),
  );
  return gate;
}

test('a sliding window of 30 per 5 s: learned at the first refusal, at most one more episode', async () => {
  // Twice real time: the pacer allows a window's hundredth (50 ms here) for a request's way to
  // the service. On a faster clock a loaded machine's scheduling delay (tens of ms, times the
  // speed) exceeds it: a request that reached the service late is refused just after a
  // pause, and the few sent since read as a far slower limit (seen at 10 times real time).
  const speed = 2;
  sim = await startSim({
    speed,
    rateLimit: { max: 30, windowMs: 5_000, clock: 'simulated' },
  });
  const gate = await run(speed, 6, 90);
  const log = sim.control.log({ route: 'GET /v1/credits' });
  expect(log.filter((e) => e.status === 200)).toHaveLength(90);
  // The first episode teaches the limit. Issue 24 allows two: on an accelerated clock a
  // request delayed on its way (beside another suite) may land in the service's window later
  // than the pacer counted it. The bench, in real time, shows one.
  expect(episodes(log)).toBeGreaterThanOrEqual(1);
  expect(episodes(log)).toBeLessThanOrEqual(2);
  const pacer = pacerOf(gate);
  // About 30 requests (those answered before the refusal was sent: never more than the
  // service let through) in a window of about 5 s (Retry-After is whole seconds). The clock
  // runs twice real time, so a loaded machine's scheduling stretches what is measured:
  // the bound says "learned near 5 s", far from the 60 s once assumed, not how precisely.
  expect(pacer.allowance).toBeGreaterThanOrEqual(27);
  expect(pacer.allowance).toBeLessThanOrEqual(30);
  expect(pacer.windowMs).toBeGreaterThanOrEqual(5_000);
  expect(pacer.windowMs).toBeLessThanOrEqual(10_000);
});

test(
  'a token bucket (600 an hour, a burst of 20): the burst, then the refill, in two episodes',
  {
    timeout: 90_000,
  },
  async () => {
    // Five times real time: one token every 1.2 s. A refill is learned from when the tokens
    // came, and a loaded machine's scheduling delay counts times the speed: at 20 times real
    // time, 0.2 s of it (beside another suite) read as a refill of 9.8 s instead of 6 s.
    const speed = 5;
    sim = await startSim({
      speed,
      rateLimit: { max: 600, windowMs: 3_600_000, burst: 20, clock: 'simulated' },
    });
    const gate = await run(speed, 4, 40);
    const log = sim.control.log({ route: 'GET /v1/credits' });
    expect(log.filter((e) => e.status === 200)).toHaveLength(40);
    expect(episodes(log)).toBeLessThanOrEqual(2);
    // Below the refill of one request every 6 s, and not far below it.
    const pacer = pacerOf(gate);
    const msPerRequest = pacer.windowMs / (pacer.allowance as number);
    expect(msPerRequest).toBeGreaterThanOrEqual(6_000);
    expect(msPerRequest).toBeLessThanOrEqual(9_000);
  },
);

/** A clock moved by hand; sleeps end when it passes their time. */
function manualClock(): Clock & { advance(ms: number): Promise<void> } {
  let now = 1_000_000;
  const sleepers: { at: number; wake: () => void }[] = [];
  return {
    now: () => now,
    sleep: (ms) => new Promise<void>((wake) => sleepers.push({ at: now + ms, wake })),
    async advance(ms) {
      now += ms;
      for (const s of sleepers.filter((x) => x.at <= now)) {
        sleepers.splice(sleepers.indexOf(s), 1);
        s.wake();
      }
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

/** Whether a promise has settled after the pending microtasks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

/** The pacer's next turn, the manual clock moved on 10 ms at a time until it is given. */
async function turnOnClock(
  pacer: Pacer,
  clock: ReturnType<typeof manualClock>,
): ReturnType<Pacer['turn']> {
  const turn = pacer.turn();
  while (!(await settled(turn))) await clock.advance(10);
  return turn;
}

test('no fixed floor or window: it learns whatever the refusal says, and waits for the window', async () => {
  const clock = manualClock();
  const pacer = new Pacer(clock);
  // Never refused: no limit at all, any number at once.
  for (let i = 0; i < 500; i++) await pacer.turn();
  expect(pacer.allowance).toBeUndefined();

  // 7 let through in 2 s, then a refusal that frees in 1 s: 7 per 3 s from now on.
  const fresh = new Pacer(clock);
  for (let i = 0; i < 7; i++) {
    await fresh.turn();
    await clock.advance(250);
  }
  const refused = await fresh.turn();
  await clock.advance(250);
  fresh.refused(1_000, refused.at);
  expect(fresh.allowance).toBe(7);
  expect(fresh.windowMs).toBe(3_000);
  // The window still holds 7 sends: the next waits until the oldest leaves it.
  const next = fresh.turn();
  expect(await settled(next)).toBe(false);
  await clock.advance(1_100);
  expect(await settled(next)).toBe(true);
  // A refusal without Retry-After teaches nothing.
  const before = { allowance: fresh.allowance, windowMs: fresh.windowMs };
  await clock.advance(5_000);
  fresh.refused(undefined, (await fresh.turn()).at);
  expect({ allowance: fresh.allowance, windowMs: fresh.windowMs }).toEqual(before);
});

test("a bucket's refill is learned from a refusal just after the pause, with the window half empty", async () => {
  const clock = manualClock();
  const pacer = new Pacer(clock);
  const take = async () => {
    const { at } = await turnOnClock(pacer, clock);
    pacer.succeeded();
    return at;
  };
  // The burst of 20: 8 at once, 12 half a second later; the 21st is refused until the next
  // token, 6 s on. Learned: 20 in 7 s.
  for (let i = 0; i < 8; i++) await take();
  await clock.advance(500);
  for (let i = 0; i < 12; i++) await take();
  await clock.advance(500);
  pacer.refused(6_000, (await pacer.turn()).at);
  expect({ allowance: pacer.allowance, windowMs: pacer.windowMs }).toEqual({
    allowance: 20,
    windowMs: 7_000,
  });
  // After the pause the 8 first slots free at once: one request gets the one new token, the
  // next is refused for another 6 s while the window holds 13 of 20. That is the refill.
  await clock.advance(6_100);
  await take();
  pacer.refused(6_000, (await pacer.turn()).at);
  const msPerRequest = pacer.windowMs / (pacer.allowance as number);
  expect(msPerRequest).toBeGreaterThanOrEqual(6_000);
});

test('a later time told by a call of the same burst starts the next count: the refill is not read over seconds nothing could be sent', async () => {
  const clock = manualClock();
  const pacer = new Pacer(clock);
  const take = async () => {
    await turnOnClock(pacer, clock);
    pacer.succeeded();
  };
  // 20 in 10 s; the 21st is refused until 1 s on. Half a second later a call that was in
  // flight with it is refused until 3 s on: what the service freed went to requests let
  // through after the first refusal, and the gate holds until then.
  for (let i = 0; i < 20; i++) {
    await take();
    await clock.advance(500);
  }
  const [first, inFlight] = [await pacer.turn(), await pacer.turn()];
  pacer.refused(1_000, first.at);
  await clock.advance(500);
  pacer.refused(3_000, inFlight.at);
  // When the service frees: one through, the next refused for 3 s. That is one token in
  // 3.1 s, read with a little margin (a reading of so few); counted from the time the first
  // refusal told, it read as one in 7 s.
  await clock.advance(3_000);
  await take();
  await clock.advance(100);
  pacer.refused(3_000, (await pacer.turn()).at);
  const msPerRequest = pacer.windowMs / (pacer.allowance as number);
  expect(msPerRequest).toBeGreaterThanOrEqual(3_100);
  expect(msPerRequest).toBeLessThanOrEqual(1.3 * 3_100);
});

test('a burst after hours of a trickle is read as the burst: the count starts after a gap as long as its window', async () => {
  const clock = manualClock();
  const pacer = new Pacer(clock);
  const send = async () => {
    const turn = await pacer.turn();
    pacer.succeeded();
    return turn;
  };
  // A running app: one request a minute for an hour (refreshes, polls), never refused.
  for (let i = 0; i < 60; i++) {
    await send();
    await clock.advance(60_000);
  }
  // Then 40 dropped files at once; the 41st is refused until the service's window frees, 10 s
  // on. Counted from the first request of the hour, that read as 100 an hour (a request every
  // 36 s); the service allows 40 in about 10 s.
  for (let i = 0; i < 40; i++) {
    await send();
    await clock.advance(10);
  }
  pacer.refused(10_000, (await pacer.turn()).at);
  expect({ allowance: pacer.allowance, windowMs: pacer.windowMs }).toEqual({
    allowance: 40,
    windowMs: 10_400,
  });
});

test('a gap shorter than the window it would begin does not start the count: that window may hold what came before it', async () => {
  const clock = manualClock();
  const pacer = new Pacer(clock);
  const started = clock.now();
  for (let burst = 0; burst < 2; burst++) {
    for (let i = 0; i < 30; i++) {
      await pacer.turn();
      pacer.succeeded();
      await clock.advance(100);
    }
    if (burst === 0) await clock.advance(3_000);
  }
  const refused = await pacer.turn();
  pacer.refused(10_000, refused.at);
  // 60 let through since the first, the window from it to when the service frees.
  expect(pacer.allowance).toBe(60);
  expect(pacer.windowMs).toBe(clock.now() + 10_000 - started);
});

/**
 * One request through the pacer to a limiter, on the manual clock; a refusal is waited out for
 * its Retry-After, as the rate gate does. Whether the limiter let it through.
 */
async function sendThrough(
  pacer: Pacer,
  clock: ReturnType<typeof manualClock>,
  limiter: RateLimiter,
): Promise<boolean> {
  const { at } = await turnOnClock(pacer, clock);
  const decision = limiter.hit('key');
  if (decision.ok) {
    pacer.succeeded();
    return true;
  }
  pacer.refused(decision.retryAfterS * 1000, at);
  await clock.advance(decision.retryAfterS * 1000);
  return false;
}

/**
 * Requests through the pacer to the simulator's own limiter, on the manual clock: `trickle`
 * requests `gapMs` apart (a running app's refreshes and polls), then `burst` requests one
 * after the other, each refusal waited out for its Retry-After as the rate gate does. Returns
 * how long the burst took and how many requests the service refused.
 */
async function trickleThenBurst(
  limit: RateLimitOptions,
  trickle: number,
  gapMs: number,
  burst: number,
): Promise<{ seconds: number; refusals: number; pacer: Pacer }> {
  const clock = manualClock();
  const pacer = new Pacer(clock);
  const limiter = createLimiter({ ...limit, clock: 'simulated' }, clock.now);
  const send = () => sendThrough(pacer, clock, limiter);
  for (let i = 0; i < trickle; i++) {
    await send();
    await clock.advance(gapMs);
  }
  const started = clock.now();
  let refusals = 0;
  for (let done = 0; done < burst;) {
    if (await send()) done++;
    else refusals++;
    await clock.advance(10);
  }
  return { seconds: (clock.now() - started) / 1000, refusals, pacer };
}

test("a trickle slower than the service's window, then a burst: paced by the burst, near the ideal time", async () => {
  // 40 per 10 s, after a request every 12 s for an hour: each gap is longer than the window,
  // so the burst's count begins at the burst. Counted from the trickle's start instead, the
  // 200 took 1,919 s.
  const run = await trickleThenBurst({ max: 40, windowMs: 10_000 }, 300, 12_000, 200);
  const ideal = (200 * 10_000) / 40 / 1000;
  expect(run.seconds).toBeLessThanOrEqual(1.15 * ideal);
  expect(run.refusals).toBeLessThanOrEqual(2);
  const perSecond = ((run.pacer.allowance as number) / run.pacer.windowMs) * 1000;
  expect(perSecond).toBeGreaterThanOrEqual(0.8 * 4);
  expect(perSecond).toBeLessThanOrEqual(4);
});

test("a bucket's burst and refill after an hour of a trickle: as fast as with no history", async () => {
  // 600 an hour with a burst of 20, after a request a minute for an hour. Counted from the
  // first request of the hour, the refill read as 80 an hour and the 60 took 39 minutes.
  const limit = { max: 600, windowMs: 3_600_000, burst: 20 };
  const fresh = await trickleThenBurst(limit, 0, 60_000, 60);
  const after = await trickleThenBurst(limit, 60, 60_000, 60);
  expect(after.seconds).toBeLessThanOrEqual(1.05 * fresh.seconds);
  expect(after.refusals).toBeLessThanOrEqual(fresh.refusals + 1);
});

/**
 * A bucket of 20 refilled at `fromMax` an hour, learned over 100 requests; then the service
 * lowers the refill to `toMax` an hour. Returns how many of the next 300 requests the service
 * refused, and the pace learned before and after (ms per request).
 */
async function refillLowered(
  fromMax: number,
  toMax: number,
): Promise<{ refusals: number; msBefore: number; msAfter: number }> {
  const clock = manualClock();
  const pacer = new Pacer(clock);
  const bucket = (max: number) =>
    createLimiter({ max, windowMs: 3_600_000, burst: 20, clock: 'simulated' }, clock.now);
  let limiter = bucket(fromMax);
  let refusals = 0;
  const send = async (): Promise<void> => {
    while (!(await sendThrough(pacer, clock, limiter))) refusals++;
  };
  const msPerRequest = () => pacer.windowMs / (pacer.allowance as number);
  for (let i = 0; i < 100; i++) await send();
  const msBefore = msPerRequest();
  limiter = bucket(toMax);
  for (let i = 0; i < 20; i++) await send(); // the new bucket starts full
  refusals = 0;
  for (let i = 0; i < 300; i++) await send();
  return { refusals, msBefore, msAfter: msPerRequest() };
}

/**
 * Learned at 1,500 an hour (a request every 2.4 s, read as about 2.55), then lowered to
 * `toMax` an hour (one every `refillMs`): at most 3 refusals in the next 300 requests, and the
 * pace ends a little slower than the refill, not much slower.
 */
async function expectRefillFollowed(toMax: number, refillMs: number): Promise<void> {
  const run = await refillLowered(1_500, toMax);
  expect(run.msBefore).toBeLessThan(2_600);
  expect(run.refusals).toBeLessThanOrEqual(3);
  expect(run.msAfter).toBeGreaterThanOrEqual(refillMs - 100);
  expect(run.msAfter).toBeLessThanOrEqual(1.3 * refillMs);
}

test('paced at one request a window, a refusal at the pace is read: not refused at every slot from then on', async () => {
  // The refill is learned as one request every 2.55 s; then the service refills one every 3.6
  // s. Paced at one request a window, the window is empty whenever a request leaves (its one
  // slot has just freed): each refusal read as "the window far from full, not the pacer's
  // rate", and nearly every slot was refused (252 times in the 300 requests).
  await expectRefillFollowed(1_000, 3_600);
});

test('a pace a little faster than the service takes the rate it reads: not refused again every half minute', async () => {
  // The refill is learned as one request every 2.55 s; then the service refills one every 2.8
  // s. Each refusal read a little slower than the pace, which was no news: the pace stayed,
  // and was refused again every half minute or so (17 times in the 300 requests).
  await expectRefillFollowed(1_286, 2_800);
});

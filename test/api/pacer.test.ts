// The pacer per key, against the simulator's sliding-window limit over real HTTP (both on
// the same accelerated clock): after the first 429s every job's calls of the key are spaced
// below the rate the service allowed, so a long run draws only a few more; and once the
// service stops refusing, the pacer speeds up again.
import { afterEach, expect, test } from 'vitest';
import { Pacer, pacerOf, RateGate, scaledClock } from '../../main/engine/api/index.ts';
import type { Clock } from '../../main/engine/api/index.ts';
import { clientFor, startSim } from './helpers.ts';

const SPEED = 200;
let sim: Awaited<ReturnType<typeof startSim>> | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

test('a long run at 120 requests a minute draws few 429s, and the pacer speeds up again after', async () => {
  sim = await startSim({
    speed: SPEED,
    rateLimit: { max: 120, windowMs: 60_000, clock: 'simulated' },
  });
  const clock = scaledClock(SPEED);
  const gate = new RateGate(clock);
  // Four jobs sharing one key, as the queue runs them: each its own client, one gate.
  const clients = [0, 1, 2, 3].map(() =>
    clientFor(sim!, {
      rateGate: gate,
      clock,
      retry: { limit: 2, rateLimitedLimit: 50, baseDelayMs: 1, maxDelayMs: 5 },
    }),
  );
  let left = 480;
  await Promise.all(
    clients.map(async (client) => {
      while (left > 0) {
        left--;
        await client.getCredits();
      }
    }),
  );
  const rejected = sim.control.log({ route: 'GET /v1/credits' }).filter((e) => e.status === 429);
  // Near the limit one request at a time: one 429 at the first limit, then at most a few more.
  expect(rejected.length).toBeLessThanOrEqual(4);

  // The service stops refusing (its limit lifted): after a quiet window the pacer speeds up.
  const pacer = pacerOf(gate);
  const paced = pacer.allowance;
  expect(paced).toBeDefined();
  sim.control.setRateLimit(false);
  await clock.sleep(61_000);
  for (let round = 0; round < 3; round++) {
    await clients[0]!.getCredits();
    await clock.sleep(61_000);
  }
  expect(pacer.allowance ?? Infinity).toBeGreaterThan(paced!);
});

test('six jobs reaching the documented limit together draw one 429, not one per job in flight', async () => {
  sim = await startSim({
    speed: SPEED,
    rateLimit: { max: 120, windowMs: 60_000, clock: 'simulated' },
  });
  const clock = scaledClock(SPEED);
  const gate = new RateGate(clock);
  const clients = [0, 1, 2, 3, 4, 5].map(() =>
    clientFor(sim!, { rateGate: gate, clock, retry: { limit: 2, rateLimitedLimit: 50 } }),
  );
  let left = 200;
  await Promise.all(
    clients.map(async (client) => {
      while (left > 0) {
        left--;
        await client.getCredits();
      }
    }),
  );
  const log = sim.control.log({ route: 'GET /v1/credits' });
  expect(log.filter((e) => e.status === 200)).toHaveLength(200);
  expect(log.filter((e) => e.status === 429)).toHaveLength(1);
});

/** A clock that stands still: the careful mode is about requests in flight, not time. */
const still: Clock = { now: () => 1_000_000, sleep: () => new Promise(() => {}) };

/** Whether a promise has settled after the pending microtasks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

test('near the documented limit one request at a time, until the service lets more through', async () => {
  const pacer = new Pacer(still);
  let sent = 0;
  const send = async (): Promise<void> => {
    const release = await pacer.turn();
    sent++;
    pacer.succeeded();
    release();
  };
  // Far from the limit: any number at once.
  const [a, b] = [pacer.turn(), pacer.turn()];
  expect(await settled(Promise.all([a, b]))).toBe(true);
  sent += 2;
  (await a)();
  (await b)();
  while (sent < 114) await send();
  const first = await pacer.turn();
  sent++;
  const second = pacer.turn();
  expect(await settled(second)).toBe(false);
  // A long poll is not waited for, nor waits: it would hold every other request for minutes.
  expect(await settled(pacer.turn(undefined, { holds: true }))).toBe(true);
  sent++;
  pacer.succeeded();
  first();
  expect(await settled(second)).toBe(true);
  sent++;
  pacer.succeeded();
  (await second)();
  // More than the documented 120 went through in one window: no more care.
  while (sent <= 120) await send();
  const [c, d] = [pacer.turn(), pacer.turn()];
  expect(await settled(Promise.all([c, d]))).toBe(true);
  expect(pacer.refusals).toBe(0);
});

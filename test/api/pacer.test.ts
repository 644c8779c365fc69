// The pacer per key, against the simulator's sliding-window limit over real HTTP (both on
// the same accelerated clock): after the first 429s every job's calls of the key are spaced
// below the rate the service allowed, so a long run draws only a few more; and once the
// service stops refusing, the pacer speeds up again.
import { afterEach, expect, test } from 'vitest';
import { pacerOf, RateGate, scaledClock } from '../../main/engine/api/index.ts';
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
  // One burst at the first limit (the jobs in flight then), then at most a few more.
  expect(rejected.length).toBeLessThanOrEqual(12);

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

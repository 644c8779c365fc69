// Retry-After as the service may send it: `0` or an HTTP date already past is a short wait
// with jitter (never a run of back-to-back resends), and an HTTP date is compared with the
// wall clock, whatever clock the client keeps its own time by.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { createApiClient, RateGate, realClock, type Clock } from '../../main/engine/api/index.ts';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** Answers 429 with these Retry-After values in turn, then the credits. */
async function serve(retryAfter: string[]): Promise<{ baseUrl: string; at: number[] }> {
  const at: number[] = [];
  server = createServer((_req, res) => {
    at.push(Date.now());
    res.setHeader('content-type', 'application/json');
    const value = retryAfter.shift();
    if (value !== undefined) {
      res.statusCode = 429;
      res.setHeader('retry-after', value);
      res.end(
        JSON.stringify({ error: { code: 'TOO_MANY_REQUESTS', status: 429, message: 'slow down' } }),
      );
    } else {
      res.end(JSON.stringify({ data: { balance: 5, unlimited: false } }));
    }
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, at };
}

function client(baseUrl: string, gate: RateGate, clock: Clock = realClock) {
  return createApiClient({
    baseUrl,
    credentials: { kind: 'api-key', secret: 'sk-retry-after' },
    retry: { limit: 3, rateLimitedLimit: 5, baseDelayMs: 200, maxDelayMs: 1000 },
    rateGate: gate,
    clock,
    timeoutMs: 5000,
  });
}

test.each([
  ['0', () => '0'],
  ['an HTTP date already past', () => new Date(Date.now() - 60_000).toUTCString()],
])(
  'Retry-After %s: a short wait with jitter between tries, not back-to-back resends',
  async (_name, value) => {
    const { baseUrl, at } = await serve([value(), value()]);
    const gate = new RateGate();
    const waits: number[] = [];
    gate.onChange((until) => {
      if (until !== undefined) waits.push(until - Date.now());
    });
    await expect(client(baseUrl, gate).getCredits()).resolves.toMatchObject({ balance: 5 });
    expect(at).toHaveLength(3);
    // Equal jitter over the base delay: at least half of it, each time.
    expect(waits).toHaveLength(2);
    for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(90);
    for (let i = 1; i < at.length; i++)
      expect((at[i] as number) - (at[i - 1] as number)).toBeGreaterThanOrEqual(90);
  },
);

test('an HTTP date is compared with the wall clock, not the client’s own clock', async () => {
  const date = new Date(Math.ceil((Date.now() + 3000) / 1000) * 1000);
  const { baseUrl } = await serve([date.toUTCString()]);
  // A client clock an hour behind the wall (a scaled or simulated clock), its gate on it too.
  const skewed: Clock = { now: () => Date.now() - 3_600_000, sleep: realClock.sleep };
  const gate = new RateGate(skewed);
  let wait: number | undefined;
  gate.onChange((until) => {
    if (until !== undefined && wait === undefined) wait = until - skewed.now();
  });
  const controller = new AbortController();
  const call = createApiClient({
    baseUrl,
    credentials: { kind: 'api-key', secret: 'sk-retry-after' },
    rateGate: gate,
    clock: skewed,
    signal: controller.signal,
  }).getCredits();
  await expect.poll(() => wait).toBeDefined();
  controller.abort();
  await call.catch(() => undefined);
  // About the 3 s the date says, not an hour and 3 s.
  expect(wait).toBeGreaterThan(500);
  expect(wait).toBeLessThan(5000);
});

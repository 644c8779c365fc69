// Rate limiting per API key in a sliding window, with 429 TOO_MANY_REQUESTS and Retry-After.
import { afterEach, describe, expect, test } from 'vitest';
import {
  createLimiter,
  SlidingWindowLimiter,
  TokenBucketLimiter,
} from '../../simulator/rate-limit.ts';
import type { Sim } from './helpers.ts';
import { expectError, start } from './helpers.ts';

let s: Sim | undefined;
afterEach(() => s?.close());

describe('sliding window limiter', () => {
  test('allows max requests per window, answers the seconds until the oldest leaves it', () => {
    let now = 0;
    const l = new SlidingWindowLimiter({ max: 3, windowMs: 60_000 }, () => now);
    expect(l.hit('a').ok).toBe(true);
    now = 1_000;
    expect(l.hit('a').ok).toBe(true);
    now = 2_000;
    expect(l.hit('a').ok).toBe(true);
    now = 10_500;
    expect(l.hit('a')).toEqual({ ok: false, retryAfterS: 50 });
    expect(l.hit('b').ok).toBe(true); // per key
    now = 60_000;
    expect(l.hit('a').ok).toBe(true); // the first hit left the window
    expect(l.hit('a')).toEqual({ ok: false, retryAfterS: 1 });
  });

  test('rejects a bad configuration', () => {
    expect(() => new SlidingWindowLimiter({ max: 0, windowMs: 1 }, () => 0)).toThrow(/max/);
  });
});

describe('token bucket limiter (1,000 an hour, a burst of 100)', () => {
  test('lets the burst through at once, then one request per refill, with the wait till the next', () => {
    let now = 0;
    const options = { max: 1000, windowMs: 3_600_000, burst: 100, clock: 'simulated' as const };
    const l = createLimiter(options, () => now);
    expect(l).toBeInstanceOf(TokenBucketLimiter);
    for (let i = 0; i < 100; i++) expect(l.hit('a').ok).toBe(true);
    // One request every 3.6 s refills.
    expect(l.hit('a')).toEqual({ ok: false, retryAfterS: 4 });
    now = 3_600;
    expect(l.hit('a').ok).toBe(true);
    expect(l.hit('a').ok).toBe(false);
    expect(l.hit('b').ok).toBe(true); // per key
    now = 3_600 + 3_600_000;
    for (let i = 0; i < 100; i++) expect(l.hit('a').ok).toBe(true); // never more than the burst
    expect(l.hit('a').ok).toBe(false);
  });

  test('rejects a bad burst', () => {
    expect(() => createLimiter({ max: 10, windowMs: 1000, burst: 0 }, () => 0)).toThrow(/burst/);
  });
});

describe('429 over HTTP', () => {
  test('the default is 120 requests a minute per key', async () => {
    s = await start({ rateLimit: undefined, apiKeys: ['test-key', 'other'] });
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) statuses.push((await s.get('/credits')).status);
    expect(statuses.slice(0, 120).every((x) => x === 200)).toBe(true);
    const limited = await s.get('/credits');
    expectError(limited, 429, 'TOO_MANY_REQUESTS');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await s.get('/credits', { key: 'other' })).status).toBe(200);
  });

  test('configurable; on the simulated clock the window can be stepped; the log records each 429 with its Retry-After', async () => {
    s = await start({ rateLimit: { max: 2, windowMs: 10_000, clock: 'simulated' } });
    await s.get('/credits');
    await s.advance(4_000);
    await s.get('/credits');
    const r = await s.get('/credits');
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('6');
    await s.advance(6_000);
    expect((await s.get('/credits')).status).toBe(200);
    const log = s.control.log({ route: 'GET /v1/credits' });
    expect(log.map((e) => e.status)).toEqual([200, 200, 429, 200]);
    expect(log[2]).toMatchObject({ code: 'TOO_MANY_REQUESTS', retryAfter: 6, outcome: 'rejected' });
    // The log lets a test check that nothing arrived inside the window: here the 4th request
    // came 6 simulated seconds after the 429.
    expect((log[3]?.simAt ?? 0) - (log[2]?.simAt ?? 0)).toBeGreaterThanOrEqual(6_000);
  });

  test('control can change or remove the limit at run time', async () => {
    s = await start();
    s.control.setRateLimit({ max: 1, windowMs: 60_000 });
    await s.get('/credits');
    expect((await s.get('/credits')).status).toBe(429);
    s.control.setRateLimit(false);
    expect((await s.get('/credits')).status).toBe(200);
  });
});

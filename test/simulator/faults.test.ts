// Fault injection: the spec grammar, determinism by seed, route scopes, and each kind over
// real HTTP (resets before and after the handler ran, 5xx, 429 with and without Retry-After,
// truncated and malformed bodies, latency).
import http from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { FaultSpecError, parseFaultSpec, startSimulator } from '../../simulator/index.ts';
import type { Sim } from './helpers.ts';
import { start } from './helpers.ts';

let s: Sim | undefined;
afterEach(() => s?.close());

const body = { sources: [{ kind: 'website', url: 'https://faults.example.com' }] };

/** Sends a request with node:http and reports what arrived, including a broken connection. */
function raw(
  url: string,
  method = 'GET',
  payload?: unknown,
): Promise<{ status?: number; length?: number; received: number; error?: string; text: string }> {
  return new Promise((resolve) => {
    const data = payload === undefined ? undefined : JSON.stringify(payload);
    const req = http.request(url, {
      method,
      headers: {
        'x-api-key': 'test-key',
        ...(data
          ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) }
          : {}),
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      const done = (error?: string) =>
        resolve({
          status: res.statusCode,
          length:
            res.headers['content-length'] === undefined
              ? undefined
              : Number(res.headers['content-length']),
          received: Buffer.concat(chunks).length,
          text: Buffer.concat(chunks).toString('utf8'),
          ...(error ? { error } : {}),
        });
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done());
      res.on('aborted', () => done('aborted'));
      res.on('error', (e) => done(e.message));
    });
    req.on('error', (e) =>
      resolve({ received: 0, text: '', error: (e as NodeJS.ErrnoException).code ?? e.message }),
    );
    req.end(data);
  });
}

describe('spec grammar', () => {
  test('parses kinds, latency, retry-after and route scopes', () => {
    const rules = parseFaultSpec(
      '5xx=0.1,reset-before=0.05,latency=10-200;POST /v1/brands:reset-after=1;GET /v1/brands/:id:truncate=0.5,retry-after=7',
    );
    expect(rules).toEqual([
      {
        method: '*',
        path: '*',
        settings: { probabilities: { '5xx': 0.1, 'reset-before': 0.05 }, latency: [10, 200] },
      },
      { method: 'POST', path: '/v1/brands', settings: { probabilities: { 'reset-after': 1 } } },
      {
        method: 'GET',
        path: '/v1/brands/{id}',
        settings: { probabilities: { truncate: 0.5 }, retryAfterS: 7 },
      },
    ]);
  });

  test.each([
    ['boom=0.1', /unknown setting "boom"/],
    ['5xx=2', /probability from 0 to 1/],
    ['5xx=', /probability from 0 to 1/],
    ['5xx=0.6,429=0.6', /add up to 1\.2/],
    ['latency=20-10', /reversed/],
    ['latency=fast', /MIN-MAX/],
    ['5xx', /NAME=VALUE/],
    ['POST /v1/brands', /scope must be followed by ':'/],
    ['retry-after=1.5', /whole seconds/],
    ['burst=0', /burst must be/],
  ])('"%s" is rejected with a clear message', (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrow(FaultSpecError);
    expect(() => parseFaultSpec(spec)).toThrow(message);
  });

  test('startSimulator rejects a bad --faults spec', async () => {
    await expect(startSimulator({ faults: '5xx=7' })).rejects.toThrow(/probability/);
  });
});

describe('determinism', () => {
  test('the same seed and spec give the same faults for the same requests', async () => {
    const run = async (seed: number) => {
      const sim = await start({ seed, faults: '5xx=0.3,429=0.2' });
      const out: number[] = [];
      for (let i = 0; i < 40; i++) out.push((await sim.get('/credits')).status);
      await sim.close();
      return out;
    };
    const a = await run(7);
    expect(await run(7)).toEqual(a);
    expect(a.some((x) => x >= 500)).toBe(true);
    expect(a.some((x) => x === 429)).toBe(true);
    expect(a.some((x) => x === 200)).toBe(true);
    expect(await run(8)).not.toEqual(a);
  });
});

describe('each fault kind', () => {
  test('reset-before: no answer and nothing changed', async () => {
    s = await start({ faults: 'POST /v1/brands:reset-before=1' });
    const r = await raw(`${s.base}/brands`, 'POST', body);
    expect(r.error).toBeDefined();
    expect(r.status).toBeUndefined();
    expect(s.control.brands()).toHaveLength(0);
    expect(s.control.log()[0]).toMatchObject({ outcome: 'reset-before', status: null });
    expect((await s.get('/credits')).status).toBe(200); // scoped to the route
  });

  test('reset-after: the handler ran (a brand exists) but the socket is destroyed; the idempotent retry returns it', async () => {
    s = await start();
    s.control.injectFault('POST /v1/brands', 'reset-after');
    const h = { 'idempotency-key': 'r1' };
    await expect(s.post('/brands', body, { headers: h })).rejects.toThrow();
    expect(s.control.brands()).toHaveLength(1);
    const retry = await s.post('/brands', body, { headers: h });
    expect(retry.status).toBe(200);
    expect(retry.body.data.id).toBe(s.control.brands()[0]?.id);
    expect(s.control.brands()).toHaveLength(1);
    expect(s.control.log().map((e) => e.outcome)).toEqual(['reset-after', 'replayed']);
  });

  test('5xx: 500/502/503 before the handler; 502 has an HTML body', async () => {
    s = await start({ faults: '5xx=1' });
    const seen = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const r = await s.post('/brands', body);
      seen.add(r.status);
      if (r.status === 502) expect(r.text).toContain('<html>');
      else expect(r.body.error.status).toBe(r.status);
    }
    expect([...seen].sort()).toEqual([500, 502, 503]);
    expect(s.control.brands()).toHaveLength(0);
  });

  test('5xx-after: 500 although the brand was created', async () => {
    s = await start({ faults: 'POST /v1/brands:5xx-after=1' });
    const r = await s.post('/brands', body);
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe('INTERNAL_ERROR');
    expect(s.control.brands()).toHaveLength(1);
  });

  test('429 with Retry-After, and 429 without it', async () => {
    s = await start({
      faults: 'GET /v1/credits:429=1,retry-after=3;GET /v1/account:429-no-retry-after=1',
    });
    const a = await s.get('/credits');
    expect(a.status).toBe(429);
    expect(a.headers.get('retry-after')).toBe('3');
    expect(a.body.error.code).toBe('TOO_MANY_REQUESTS');
    const b = await s.get('/account');
    expect(b.status).toBe(429);
    expect(b.headers.get('retry-after')).toBeNull();
    expect(s.control.log().map((e) => [e.outcome, e.retryAfter])).toEqual([
      ['429', 3],
      ['429-no-retry-after', null],
    ]);
  });

  test('429 bursts: one drawn 429 is followed by burst-1 more on the same route', async () => {
    s = await start({ seed: 3, faults: 'GET /v1/credits:429=0.2,burst=3,retry-after=2' });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await s.get('/credits')).status);
    // Runs of 429s between two 200s (the last run may be cut off by the end of the loop).
    const runs = statuses
      .join(',')
      .split('200')
      .slice(0, -1)
      .filter((x) => x.includes('429'));
    expect(runs.length).toBeGreaterThan(0);
    // Every run of 429s is a whole number of bursts of 3 (a burst may start right after another).
    for (const run of runs) expect(run.split(',').filter((x) => x === '429').length % 3).toBe(0);
    expect(
      s.control
        .log()
        .filter((e) => e.status === 429)
        .every((e) => e.retryAfter === 2),
    ).toBe(true);
  });

  test('truncate: Content-Length promises more than arrives, then the connection breaks', async () => {
    s = await start({ faults: 'GET /v1/brands/{id}:truncate=1' });
    const b = await s.control.seedBrand({ name: 'T' });
    const r = await raw(`${s.base}/brands/${b.id}`);
    expect(r.status).toBe(200);
    expect(r.length).toBeGreaterThan(r.received);
    expect(r.received).toBeGreaterThan(0);
    expect(r.error).toBeDefined();
  });

  test('truncate applies to downloads too', async () => {
    s = await start();
    const b = await s.control.seedBrand({ name: 'Z', withExport: true });
    const e = (await s.get(`/brands/${b.id}/exports/${b.skillId}`)).body.data;
    s.control.injectFault('GET /files/*', 'truncate');
    const r = await raw(e.download.url);
    expect(r.length).toBeGreaterThan(r.received);
    const ok = await raw(e.download.url);
    expect(ok.received).toBe(ok.length);
  });

  test('malformed: a 2xx whose body is not JSON', async () => {
    s = await start({ faults: 'GET /v1/credits:malformed=1' });
    const r = await s.get('/credits');
    expect(r.status).toBe(200);
    expect(r.body).toBeUndefined();
    expect(() => JSON.parse(r.text)).toThrow();
  });

  test('latency delays the answer by at least its minimum', async () => {
    s = await start({ faults: 'latency=40-60' });
    await s.get('/credits');
    expect(s.control.log()[0]?.durationMs).toBeGreaterThanOrEqual(40);
  });

  test('control sets and clears faults at run time; a later rule overrides an earlier one', async () => {
    s = await start();
    s.control.setFaults('5xx=1;GET /v1/account:5xx=0');
    expect((await s.get('/credits')).status).toBeGreaterThanOrEqual(500);
    expect((await s.get('/account')).status).toBe(200);
    s.control.clearFaults();
    expect((await s.get('/credits')).status).toBe(200);
    expect(() => s?.control.setFaults('nope=1')).toThrow(FaultSpecError);
  });
});

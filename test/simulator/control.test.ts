// The control API over HTTP (outside /v1, no API key), the request log, the demo seed, and
// the simulated clock.
import { afterEach, describe, expect, test } from 'vitest';
import { SimClock } from '../../simulator/clock.ts';
import type { Json, Sim } from './helpers.ts';
import { expectError, png, start } from './helpers.ts';

let s: Sim | undefined;
afterEach(() => s?.close());

async function ctl(sim: Sim, op: string, args?: unknown): Promise<{ status: number; body: Json }> {
  const r = await fetch(`${sim.sim.origin}/_control/${op}`, {
    method: 'POST',
    ...(args === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(args) }),
  });
  return { status: r.status, body: await r.json() };
}

describe('control over HTTP', () => {
  test('seeds brands, library items, edits and credits; steps the clock; reads the log', async () => {
    s = await start();
    const brand = (await ctl(s, 'seedBrand', { name: 'Ctl', status: 'analyzing' })).body.data;
    expect(brand.status).toBe('analyzing');
    await ctl(s, 'advance', [30_000]);
    expect((await s.get(`/brands/${brand.id}`)).body.data.status).toBe('ready');
    const lib = (
      await ctl(s, 'seedLibrary', [
        brand.id,
        {
          items: [{ type: 'image', contentBase64: png().toString('base64') }],
          bulk: { count: 10 },
        },
      ])
    ).body.data;
    expect(lib.size).toBe(11);
    const edit = (await ctl(s, 'seedEdit', { brandId: brand.id, status: 'awaiting_approval' })).body
      .data;
    expect((await s.post(`/brands/${brand.id}/edits/${edit.id}/apply`)).body.data.status).toBe(
      'applied',
    );
    await ctl(s, 'setCredits', [null, { balance: 9 }]);
    expect((await s.get('/credits')).body.data.balance).toBe(9);
    const log = await fetch(`${s.sim.origin}/_control/log?route=GET%20/v1/credits`).then(
      (r) => r.json() as Promise<Json>,
    );
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({
      method: 'GET',
      route: 'GET /v1/credits',
      status: 200,
      outcome: 'processed',
      key: 'key1',
    });
    // Control requests are not logged and not under /v1.
    expect(s.control.log().some((e) => e.path.startsWith('/_control'))).toBe(false);
    expect((await s.get('/_control/log')).status).toBe(404); // /v1/_control does not exist
  });

  test('fails or bans on demand, injects faults, forces outcomes, issues tokens', async () => {
    s = await start();
    await ctl(s, 'failNext', ['GET /v1/account', { status: 503, code: 'MAINTENANCE' }]);
    expectError(await s.get('/account'), 503, 'MAINTENANCE');
    await ctl(s, 'ban', ['key1']);
    expectError(await s.get('/account'), 403, 'ACCOUNT_BANNED');
    await ctl(s, 'unban', ['key1']);
    await ctl(s, 'injectFault', ['GET /v1/account', '429']);
    expect((await s.get('/account')).status).toBe(429);
    const bad = await ctl(s, 'setFaults', ['5xx=9']);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      code: 'CONTROL_ERROR',
      message: expect.stringMatching(/probability/),
    });
    expect((await ctl(s, 'noSuchThing')).status).toBe(400);
    const brand = (await ctl(s, 'seedBrand', {})).body.data;
    await ctl(s, 'nextBrandOutcome', ['PDF_SOURCE_REJECTED']);
    const id = await s.createBrand('https://other.example.com');
    await s.advance(30_000);
    expect((await s.get(`/brands/${id}`)).body.data.failure.code).toBe('PDF_SOURCE_REJECTED');
    const tok = (await ctl(s, 'issueUploadToken', { kind: 'image', brandId: brand.id })).body.data;
    expect((await s.call('POST', tok.url, { key: null, body: s.uploadForm(png()) })).status).toBe(
      200,
    );
    const uploads = await fetch(`${s.sim.origin}/_control/uploads?brandId=${brand.id}`).then(
      (r) => r.json() as Promise<Json>,
    );
    expect(uploads.data).toEqual([expect.objectContaining({ received: 1 })]);
  });

  test('log: idempotency key, created resource, arrival times', async () => {
    s = await start();
    await s.post(
      '/brands',
      { sources: [{ kind: 'website', url: 'https://log.example.com' }] },
      { headers: { 'idempotency-key': 'abc' } },
    );
    const [entry] = s.control.log();
    expect(entry).toMatchObject({
      idempotencyKey: 'abc',
      created: { kind: 'brand' },
      route: 'POST /v1/brands',
    });
    expect(typeof entry?.at).toBe('number');
    expect(typeof entry?.simAt).toBe('number');
    s.control.clearLog();
    expect(s.control.log()).toHaveLength(0);
  });
});

describe('demo seed', () => {
  test('three or more brands in different states, libraries with image/video/audio, a ready export, pending edits, credits', async () => {
    s = await start({ demo: true });
    const brands = (await s.get('/brands')).body.data.brands as Array<{
      id: string;
      status: string;
      name: string;
      skillId: string;
    }>;
    expect(brands.length).toBeGreaterThanOrEqual(3);
    expect(new Set(brands.map((b) => b.status))).toEqual(new Set(['ready', 'analyzing', 'failed']));
    const nw = brands.find((b) => b.name === 'Northwind Coffee');
    if (!nw) throw new Error('demo brand missing');
    const types = new Set(
      (await s.get(`/brands/${nw.id}/library`)).body.data.items.map(
        (m: { type: string }) => m.type,
      ),
    );
    expect(types).toEqual(new Set(['image', 'video', 'audio']));
    expect((await s.get(`/brands/${nw.id}/exports/${nw.skillId}`)).body.data.status).toBe('ready');
    const edits = (await s.get(`/brands/${nw.id}/edits`)).body.data.items.map(
      (e: { status: string }) => e.status,
    );
    expect(edits).toContain('awaiting_approval');
    expect((await s.get('/credits')).body.data.balance).toBeGreaterThan(0);
    expect((await s.get('/workspaces')).body.data.workspaces.length).toBeGreaterThanOrEqual(2);
  });
});

describe('simulated clock', () => {
  test('manual: time moves only by advance; timers fire in order at their due time', () => {
    const c = new SimClock({ manual: true, startAt: 1000 });
    const fired: Array<[string, number]> = [];
    c.setTimeout(() => fired.push(['b', c.now()]), 200);
    c.setTimeout(() => {
      fired.push(['a', c.now()]);
      c.setTimeout(() => fired.push(['c', c.now()]), 150); // counts from a's due time
    }, 100);
    const cancelled = c.setTimeout(() => fired.push(['x', c.now()]), 50);
    cancelled.cancel();
    expect(c.now()).toBe(1000);
    c.advance(300);
    expect(fired).toEqual([
      ['a', 1100],
      ['b', 1200],
      ['c', 1250],
    ]);
    expect(c.now()).toBe(1300);
    c.dispose();
  });

  test('speed scales real time', async () => {
    const c = new SimClock({ speed: 1000 });
    const t0 = c.now();
    let fired = false;
    c.setTimeout(() => (fired = true), 20_000); // 20 simulated seconds: 20 real ms
    await new Promise((r) => setTimeout(r, 120));
    expect(fired).toBe(true);
    expect(c.now() - t0).toBeGreaterThanOrEqual(20_000);
    expect(() => new SimClock({ speed: 0 })).toThrow(/positive/);
    c.dispose();
  });

  test('a high-speed simulator finishes a brand without stepping', async () => {
    s = await start({ manualClock: false, speed: 10_000 });
    const id = await s.createBrand();
    const r = await s.get(`/brands/${id}`, { query: { wait: 'true', timeout: 60 } });
    expect(r.body.data.status).toBe('ready');
  });
});

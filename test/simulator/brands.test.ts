// Brands: creation, analyzing → ready | failed (both groups of failure codes), idempotency,
// long-poll, list with cursors, delete, duplicates, logo re-analysis.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Sim } from './helpers.ts';
import { expectError, png, start, svg } from './helpers.ts';

let s: Sim;
beforeEach(async () => {
  s = await start();
});
afterEach(() => s.close());

describe('POST /brands and the brand state machine', () => {
  test('analyzing → ready after the analysis; the ready brand has an active skillId', async () => {
    const id = await s.createBrand('https://northwind.example.com');
    let b = await s.get(`/brands/${id}`);
    expect(b.body.data).toMatchObject({ id, status: 'analyzing', skillId: null });
    await s.advance(29_000);
    expect((await s.get(`/brands/${id}`)).body.data.status).toBe('analyzing');
    await s.advance(1_000);
    b = await s.get(`/brands/${id}`);
    expect(b.body.data).toMatchObject({
      status: 'ready',
      name: 'Northwind',
      workspaceId: null,
      failure: null,
    });
    expect(b.body.data.skillId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test.each([
    'INVALID_URL',
    'UNSUPPORTED_SOURCE',
    'WEBSITE_SOURCE_REJECTED',
    'PDF_SOURCE_REJECTED',
    'SOURCE_REJECTED',
    'INSTAGRAM_PROFILE_NOT_FOUND',
    'INSTAGRAM_PRIVATE_PROFILE',
    'SCRAPE_FAILED',
    'INSTAGRAM_FETCH_FAILED',
    'PDF_PROCESSING_FAILED',
    'BRAND_GUIDE_BUILD_FAILED',
    'INTERNAL_ERROR',
  ])('analyzing → failed with creation failure code %s (fail-<CODE> convention)', async (code) => {
    const id = await s.createBrand(`https://example.com/fail-${code}`);
    await s.advance(30_000);
    const b = (await s.get(`/brands/${id}`)).body.data;
    expect(b.status).toBe('failed');
    expect(b.failure.code).toBe(code);
    expect(typeof b.failure.message).toBe('string');
    expect(b).not.toHaveProperty('failure.retryable');
  });

  test('a URL that does not parse fails the brand with INVALID_URL; an unknown kind with UNSUPPORTED_SOURCE', async () => {
    const bad = await s.post('/brands', { sources: [{ kind: 'website', url: 'not a url' }] });
    const odd = await s.post('/brands', {
      sources: [{ kind: 'tiktok', url: 'https://tiktok.com/@x' }],
    });
    await s.advance(30_000);
    expect((await s.get(`/brands/${bad.body.data.id}`)).body.data.failure.code).toBe('INVALID_URL');
    expect((await s.get(`/brands/${odd.body.data.id}`)).body.data.failure.code).toBe(
      'UNSUPPORTED_SOURCE',
    );
  });

  test('control forces the next outcome; an unknown code is reported as it is', async () => {
    s.control.nextBrandOutcome('SOMETHING_NEW');
    const id = await s.createBrand();
    await s.advance(30_000);
    expect((await s.get(`/brands/${id}`)).body.data.failure.code).toBe('SOMETHING_NEW');
  });

  test('brandName is not accepted on /brands', async () => {
    const r = await s.post('/brands', {
      brandName: 'X',
      sources: [{ kind: 'website', url: 'https://a.example.com' }],
    });
    expectError(r, 400, 'BAD_REQUEST');
  });

  test('workspaceId must be an accessible team workspace', async () => {
    const team = s.control.addWorkspace({ name: 'Team' });
    const hidden = s.control.addWorkspace({ name: 'Hidden', accessible: false });
    const ok = await s.post('/brands', {
      workspaceId: team.id,
      sources: [{ kind: 'website', url: 'https://t.example.com' }],
    });
    expect(ok.status).toBe(200);
    const r = await s.post('/brands', {
      workspaceId: hidden.id,
      sources: [{ kind: 'website', url: 'https://h.example.com' }],
    });
    expectError(r, 404, 'WORKSPACE_NOT_FOUND');
    const b = (await s.get(`/brands/${ok.body.data.id}`)).body.data;
    expect(b).toMatchObject({ workspaceId: team.id, workspaceName: 'Team' });
  });

  test('a website matching a live brand answers 409 DUPLICATE_BRAND with the matches; allowDuplicate creates', async () => {
    const first = await s.createBrand('https://www.dup.example.com/about');
    const again = await s.post('/brands', {
      sources: [{ kind: 'website', url: 'https://dup.example.com' }],
    });
    expectError(again, 409, 'DUPLICATE_BRAND');
    expect(again.body.error.data.brands.map((b: { id: string }) => b.id)).toEqual([first]);
    const forced = await s.post('/brands', {
      allowDuplicate: true,
      sources: [{ kind: 'website', url: 'https://dup.example.com' }],
    });
    expect(forced.status).toBe(200);
    expect(forced.body.data.id).not.toBe(first);
  });
});

describe('idempotency', () => {
  const body = { sources: [{ kind: 'website', url: 'https://idem.example.com' }] };

  test('the same key and body return the first result: exactly one brand is created', async () => {
    const h = { 'idempotency-key': 'create-1' };
    const results = await Promise.all([1, 2, 3].map(() => s.post('/brands', body, { headers: h })));
    const ids = new Set(results.map((r) => r.body.data.id));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(ids.size).toBe(1);
    const created = s.control.log({ route: 'POST /v1/brands' }).filter((e) => e.created);
    expect(created).toHaveLength(1);
    expect(
      s.control.log({ route: 'POST /v1/brands' }).filter((e) => e.outcome === 'replayed'),
    ).toHaveLength(2);
    expect(s.control.brands()).toHaveLength(1);
  });

  test('the same key with another body → 409 IDEMPOTENCY_CONFLICT', async () => {
    await s.post('/brands', body, { headers: { 'idempotency-key': 'k' } });
    const other = await s.post(
      '/brands',
      { ...body, instructions: 'x' },
      { headers: { 'idempotency-key': 'k' } },
    );
    expectError(other, 409, 'IDEMPOTENCY_CONFLICT');
  });

  test('key order in the body does not matter; keys are scoped per route', async () => {
    const a = await s.post(
      '/brands',
      { instructions: 'i', sources: body.sources },
      { headers: { 'idempotency-key': 'o' } },
    );
    const b = await s.post(
      '/brands',
      { sources: body.sources, instructions: 'i' },
      { headers: { 'idempotency-key': 'o' } },
    );
    expect(b.body.data.id).toBe(a.body.data.id);
    const beta = await s.post(
      '/brand-skills',
      { sources: body.sources },
      { headers: { 'idempotency-key': 'o' } },
    );
    expect(beta.status).toBe(200);
  });

  test('an error result is replayed too; a failNext 500 is not kept, so the retry runs', async () => {
    const bad = await s.post('/brands', { sources: [] }, { headers: { 'idempotency-key': 'e' } });
    expectError(bad, 400, 'INVALID_SOURCE');
    expectError(
      await s.post('/brands', { sources: [] }, { headers: { 'idempotency-key': 'e' } }),
      400,
      'INVALID_SOURCE',
    );
    s.control.failNext('POST /v1/brands');
    expectError(
      await s.post('/brands', body, { headers: { 'idempotency-key': 'f' } }),
      500,
      'INTERNAL_ERROR',
    );
    const retry = await s.post('/brands', body, { headers: { 'idempotency-key': 'f' } });
    expect(retry.status).toBe(200);
  });

  test('Idempotency-Key must be 1-255 characters', async () => {
    expectError(
      await s.post('/brands', body, { headers: { 'idempotency-key': '' } }),
      400,
      'BAD_REQUEST',
    );
    expectError(
      await s.post('/brands', body, { headers: { 'idempotency-key': 'x'.repeat(256) } }),
      400,
      'BAD_REQUEST',
    );
    expect(
      (await s.post('/brands', body, { headers: { 'idempotency-key': 'x'.repeat(255) } })).status,
    ).toBe(200);
  });
});

describe('long-poll GET /brands/{id}?wait=true', () => {
  test('holds the connection until the brand becomes ready', async () => {
    const id = await s.createBrand();
    let done = false;
    const pending = s.get(`/brands/${id}`, { query: { wait: 'true' } }).then((r) => {
      done = true;
      return r;
    });
    await s.held('GET /v1/brands/{id}');
    expect(done).toBe(false);
    await s.advance(30_000);
    const r = await pending;
    expect(r.body.data.status).toBe('ready');
  });

  test('a wait that times out answers the current brand, not an error', async () => {
    const id = await s.createBrand();
    const pending = s.get(`/brands/${id}`, { query: { wait: 1, timeout: 5 } });
    await s.held('GET /v1/brands/{id}');
    await s.advance(5_000);
    const r = await pending;
    expect(r.status).toBe(200);
    expect(r.body.data.status).toBe('analyzing');
  });

  test('timeout must be 1-295', async () => {
    const id = await s.createBrand();
    expectError(
      await s.get(`/brands/${id}`, { query: { wait: 'true', timeout: 0 } }),
      400,
      'BAD_REQUEST',
    );
    expectError(
      await s.get(`/brands/${id}`, { query: { wait: 'true', timeout: 296 } }),
      400,
      'BAD_REQUEST',
    );
  });
});

describe('list, delete', () => {
  test('GET /brands pages newest first with cursors and hasMore', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await s.control.seedBrand({ name: `B${i}` })).id);
    const p1 = (await s.get('/brands', { query: { limit: 2 } })).body.data;
    expect(p1.brands.map((b: { id: string }) => b.id)).toEqual([ids[4], ids[3]]);
    expect(p1.hasMore).toBe(true);
    const p2 = (await s.get('/brands', { query: { limit: 2, cursor: p1.nextCursor } })).body.data;
    expect(p2.brands.map((b: { id: string }) => b.id)).toEqual([ids[2], ids[1]]);
    const p3 = (await s.get('/brands', { query: { limit: 2, cursor: p2.nextCursor } })).body.data;
    expect(p3).toMatchObject({ hasMore: false, nextCursor: null });
    expect(p3.brands).toHaveLength(1);
    expectError(await s.get('/brands', { query: { cursor: 'garbage!' } }), 400, 'INVALID_CURSOR');
    expectError(await s.get('/brands', { query: { limit: 101 } }), 400, 'BAD_REQUEST');
  });

  test('DELETE answers {id, name, workspaceId, workspaceName}; the brand is gone afterwards', async () => {
    const b = await s.readyBrand('Gone');
    const del = await s.call('DELETE', `/brands/${b.id}`);
    expect(del.body.data).toEqual({
      id: b.id,
      name: 'Gone',
      workspaceId: null,
      workspaceName: 'Personal',
    });
    expectError(await s.call('DELETE', `/brands/${b.id}`), 404, 'BRAND_NOT_FOUND');
    expectError(await s.get(`/brands/${b.id}`), 404, 'BRAND_NOT_FOUND');
    expectError(await s.get(`/brands/${b.id}/library`), 404, 'BRAND_NOT_FOUND');
  });
});

describe('logo', () => {
  test('a logo upload sends the brand to analyzing, then to ready with a new active skill', async () => {
    const b = await s.readyBrand();
    const r = await s.call('PUT', `/brands/${b.id}/logo/file`, {
      body: s.uploadForm(svg(), {}, 'logo.svg'),
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ id: b.id, status: 'analyzing' });
    expect((await s.get(`/brands/${b.id}`)).body.data.status).toBe('analyzing');
    await s.advance(10_000);
    const after = (await s.get(`/brands/${b.id}`)).body.data;
    expect(after.status).toBe('ready');
    expect(after.skillId).not.toBe(b.skillId);
    const logo = await fetch(after.logoUrl);
    expect(logo.headers.get('content-type')).toContain('image/svg+xml');
  });

  test('logo formats by magic bytes: a GIF or text is 400 INVALID_LOGO; an unknown brand 404', async () => {
    const b = await s.readyBrand();
    expectError(
      await s.call('PUT', `/brands/${b.id}/logo/file`, {
        body: s.uploadForm(Buffer.from('GIF89a......'), {}, 'x.png'),
      }),
      400,
      'INVALID_LOGO',
    );
    expectError(
      await s.call('PUT', `/brands/${b.id}/logo/file`, {
        body: s.uploadForm(Buffer.from('hello'), {}, 'x.svg'),
      }),
      400,
      'INVALID_LOGO',
    );
    expectError(
      await s.call('PUT', `/brands/00000000-0000-4000-8000-00000000000f/logo/file`, {
        body: s.uploadForm(png()),
      }),
      404,
      'BRAND_NOT_FOUND',
    );
  });

  test('a logo of 10,000,000 bytes is accepted; 10,000,001 → 400 INVALID_LOGO', async () => {
    const b = await s.readyBrand();
    const big = (n: number) => {
      const out = Buffer.alloc(n, 1);
      png().copy(out);
      return out;
    };
    const tooBig = await s.call('PUT', `/brands/${b.id}/logo/file`, {
      body: s.uploadForm(big(10_000_001)),
    });
    expectError(tooBig, 400, 'INVALID_LOGO');
    const ok = await s.call('PUT', `/brands/${b.id}/logo/file`, {
      body: s.uploadForm(big(10_000_000)),
    });
    expect(ok.status).toBe(200);
  });

  test('a logo while the brand is analyzing → 409 BRAND_NOT_READY', async () => {
    const id = await s.createBrand();
    expectError(
      await s.call('PUT', `/brands/${id}/logo/file`, { body: s.uploadForm(png()) }),
      409,
      'BRAND_NOT_READY',
    );
  });
});

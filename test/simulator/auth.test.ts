// Authentication, bans and the error envelope on every endpoint.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Sim } from './helpers.ts';
import { expectError, png, start } from './helpers.ts';
import type { Json } from './helpers.ts';

const U = '00000000-0000-4000-8000-000000000001';
// Every authenticated endpoint of the document and of docs/service.md.
const ENDPOINTS: Array<[string, string]> = [
  ['GET', '/credits'],
  ['GET', '/workspaces'],
  ['GET', '/account'],
  ['POST', '/brands'],
  ['GET', '/brands'],
  ['GET', `/brands/${U}`],
  ['DELETE', `/brands/${U}`],
  ['PUT', `/brands/${U}/logo/file`],
  ['POST', `/brands/${U}/exports`],
  ['GET', `/brands/${U}/exports/${U}`],
  ['GET', `/brands/${U}/library`],
  ['GET', `/brands/${U}/edits`],
  ['GET', `/brands/${U}/edits/${U}`],
  ['POST', `/brands/${U}/edits/${U}/apply`],
  ['POST', `/brands/${U}/edits/${U}/discard`],
  ['POST', '/brand-skills'],
  ['GET', `/brand-skills/${U}`],
  ['DELETE', `/brand-skills/${U}`],
  ['POST', '/images/uploads/file'],
  ['POST', '/images/uploads'],
  ['GET', `/images/${U}`],
  ['POST', `/images/${U}/edit`],
  ['GET', `/videos/${U}`],
  ['POST', '/uploads'],
];

let s: Sim;
beforeEach(async () => {
  s = await start({ apiKeys: ['test-key', 'second-key'] });
});
afterEach(() => s.close());

describe('credentials', () => {
  test('x-api-key and Authorization: Bearer both authenticate', async () => {
    expect((await s.get('/credits')).status).toBe(200);
    const bearer = await s.get('/credits', {
      key: null,
      headers: { authorization: 'Bearer test-key' },
    });
    expect(bearer.status).toBe(200);
  });

  test('x-api-key wins when both arrive', async () => {
    const good = await s.get('/credits', {
      key: 'test-key',
      headers: { authorization: 'Bearer wrong' },
    });
    expect(good.status).toBe(200);
    const bad = await s.get('/credits', {
      key: 'wrong',
      headers: { authorization: 'Bearer test-key' },
    });
    expectError(bad, 401, 'UNAUTHORIZED');
  });

  test.each(ENDPOINTS)(
    '%s %s: missing or wrong credentials → 401 UNAUTHORIZED',
    async (method, path) => {
      expectError(await s.call(method, path, { key: null }), 401, 'UNAUTHORIZED');
      expectError(await s.call(method, path, { key: 'nope' }), 401, 'UNAUTHORIZED');
      expectError(
        await s.call(method, path, { key: null, headers: { authorization: 'Basic dGVzdC1rZXk=' } }),
        401,
        'UNAUTHORIZED',
      );
    },
  );

  test.each(ENDPOINTS)('%s %s: a banned account → 403 ACCOUNT_BANNED', async (method, path) => {
    s.control.ban('test-key');
    expectError(await s.call(method, path), 403, 'ACCOUNT_BANNED');
    // Bans are per key here: another key of the simulator still works.
    expect((await s.get('/credits', { key: 'second-key' })).status).toBe(200);
    s.control.unban('test-key');
    expect((await s.get('/credits')).status).toBe(200);
  });

  test('signed upload endpoints need no API key and answer 403 for a banned account', async () => {
    const brand = await s.readyBrand();
    const t = s.control.issueUploadToken({ kind: 'image', brandId: brand.id });
    s.control.ban('key1');
    const res = await s.call('POST', t.url, { key: null, body: s.uploadForm(png()) });
    expectError(res, 403, 'ACCOUNT_BANNED');
    const lt = s.control.issueUploadToken({ kind: 'logo', brandId: brand.id });
    expectError(
      await s.call('PUT', lt.url, { key: null, body: s.uploadForm(png()) }),
      403,
      'ACCOUNT_BANNED',
    );
  });

  test('the request log never holds the API key', async () => {
    await s.get('/credits');
    await s.get('/credits', { key: 'nope' });
    const log = JSON.stringify(s.control.log());
    expect(log).not.toContain('test-key');
    expect(s.control.log()[0]?.key).toBe('key1');
  });
});

describe('error envelope', () => {
  test('errors carry {error: {code, status, message}} and unknown routes answer NOT_FOUND', async () => {
    const res = await s.get('/nothing-here');
    expectError(res, 404, 'NOT_FOUND');
    expect(Object.keys(res.body)).toEqual(['error']);
  });

  test('malformed JSON is 400 BAD_REQUEST in the envelope', async () => {
    const r = await fetch(`${s.base}/brands`, {
      method: 'POST',
      headers: { 'x-api-key': 'test-key', 'content-type': 'application/json' },
      body: '{"sources": [',
    });
    const body = (await r.json()) as Json;
    expect(r.status).toBe(400);
    expect(body.error).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
  });

  test('every success body is an object with the single key data', async () => {
    const res = await s.get('/credits');
    expect(Object.keys(res.body)).toEqual(['data']);
  });
});

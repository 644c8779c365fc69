// Image uploads (formats by magic bytes, 10 MB, exact-match reuse, AVIF as PNG, 422 for an
// unknown brand session), signed upload tokens, remote uploads, GET /images/{id} with wait,
// and the image edit with its credits, entitlements and content_safety failure.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Sim } from './helpers.ts';
import { avif, expectError, gif, jpeg, png, pngOfSize, start, svg, tick, webp } from './helpers.ts';

let s: Sim;
let brand: { id: string; skillId: string };
beforeEach(async () => {
  s = await start();
  brand = await s.readyBrand();
});
afterEach(() => s.close());

const upload = (bytes: Buffer, fields: Record<string, string> = {}) =>
  s.post('/images/uploads/file', s.uploadForm(bytes, fields));

describe('POST /images/uploads/file', () => {
  test.each([
    ['PNG', png(40, 30), 'image/png', 40, 30],
    ['JPEG', jpeg(64, 48), 'image/jpeg', 64, 48],
    ['WebP', webp(50, 20), 'image/webp', 50, 20],
    ['AVIF (reported as PNG)', avif(30, 20), 'image/png', 30, 20],
  ])('%s is accepted, judged by its bytes', async (_name, bytes, mime, w, h) => {
    const r = await s.post(
      '/images/uploads/file',
      s.uploadForm(bytes, { brandSessionId: brand.id }, 'misnamed.txt'),
    );
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ mimeType: mime, width: w, height: h, existing: false });
    expect(r.body.data.imageUrl).toMatch(new RegExp(`/img/${r.body.data.id}$`));
    const img = await fetch(r.body.data.imageUrl);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toContain(mime);
    if (_name.startsWith('AVIF'))
      expect(
        Buffer.from(await img.arrayBuffer())
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
  });

  test('uploaded images enter the brand Library as source uploaded, inLibrary true', async () => {
    const r = await upload(png(), { brandSessionId: brand.id });
    const lib = (await s.get(`/brands/${brand.id}/library`)).body.data.items;
    expect(lib[0]).toMatchObject({
      id: r.body.data.id,
      source: 'uploaded',
      inLibrary: true,
      type: 'image',
    });
  });

  test('an exact match in the same brand session answers existing: true with the same ID', async () => {
    const a = await upload(png(9, 9), { brandSessionId: brand.id });
    const b = await upload(png(9, 9), { brandSessionId: brand.id });
    expect(b.body.data).toMatchObject({ id: a.body.data.id, existing: true });
    const other = await s.readyBrand('Other');
    const c = await upload(png(9, 9), { brandSessionId: other.id });
    expect(c.body.data.existing).toBe(false);
    expect(s.control.uploads(brand.id)).toEqual([
      expect.objectContaining({ id: a.body.data.id, received: 2 }),
    ]);
    const lib = (await s.get(`/brands/${brand.id}/library`)).body.data.items;
    expect(lib).toHaveLength(1);
  });

  test('unsupported formats → 400 UNSUPPORTED_FORMAT (GIF, SVG, text with a .png name)', async () => {
    for (const bytes of [gif(), svg(), Buffer.from('just text')]) {
      expectError(await upload(bytes, { brandSessionId: brand.id }), 400, 'UNSUPPORTED_FORMAT');
    }
  });

  test('10,000,000 bytes are accepted; 10,000,001 → 400 FILE_TOO_LARGE', async () => {
    expect((await upload(pngOfSize(10_000_000), { brandSessionId: brand.id })).status).toBe(200);
    expectError(
      await upload(pngOfSize(10_000_001), { brandSessionId: brand.id }),
      400,
      'FILE_TOO_LARGE',
    );
  });

  test('an unknown brand session → 422 BRAND_NOT_FOUND "brand session not found"', async () => {
    const r = await upload(png(), { brandSessionId: '00000000-0000-4000-8000-000000000001' });
    expectError(r, 422, 'BRAND_NOT_FOUND');
    expect(r.body.error.message).toBe('brand session not found');
    expectError(await upload(png(), { brandSessionId: 'not-a-uuid' }), 422, 'BRAND_NOT_FOUND');
  });
});

describe('signed upload endpoints', () => {
  test('a token works once; a used, expired or unknown token → 401 INVALID_UPLOAD_TOKEN', async () => {
    const t = s.control.issueUploadToken({ kind: 'image', brandId: brand.id, ttlMs: 60_000 });
    const ok = await s.call('POST', t.url, { key: null, body: s.uploadForm(png(5, 5)) });
    expect(ok.status).toBe(200);
    expect(ok.body.data.existing).toBe(false);
    expectError(
      await s.call('POST', t.url, { key: null, body: s.uploadForm(png(6, 6)) }),
      401,
      'INVALID_UPLOAD_TOKEN',
    );
    const t2 = s.control.issueUploadToken({ kind: 'image', brandId: brand.id, ttlMs: 60_000 });
    await s.advance(60_000);
    expectError(
      await s.call('POST', t2.url, { key: null, body: s.uploadForm(png(6, 6)) }),
      401,
      'INVALID_UPLOAD_TOKEN',
    );
    expectError(
      await s.call('POST', `/images/uploads/file/signed/unknown-token`, {
        key: null,
        body: s.uploadForm(png()),
      }),
      401,
      'INVALID_UPLOAD_TOKEN',
    );
  });

  test('the signed image endpoint reuses an exact match and rejects unsupported formats', async () => {
    await upload(png(7, 7), { brandSessionId: brand.id });
    const t = s.control.issueUploadToken({ kind: 'image', brandId: brand.id });
    expectError(
      await s.call('POST', t.url, { key: null, body: s.uploadForm(gif()) }),
      400,
      'UNSUPPORTED_FORMAT',
    );
    const r = await s.call('POST', t.url, { key: null, body: s.uploadForm(png(7, 7)) });
    expect(r.body.data.existing).toBe(true);
  });

  test('the signed logo endpoint: same validation as the plain one, token single-use', async () => {
    const t = s.control.issueUploadToken({ kind: 'logo', brandId: brand.id });
    expectError(
      await s.call('PUT', t.url, { key: null, body: s.uploadForm(Buffer.from('nope')) }),
      400,
      'INVALID_LOGO',
    );
    const ok = await s.call('PUT', t.url, { key: null, body: s.uploadForm(webp()) });
    expect(ok.body.data).toEqual({ id: brand.id, status: 'analyzing' });
    expectError(
      await s.call('PUT', t.url, { key: null, body: s.uploadForm(webp()) }),
      401,
      'INVALID_UPLOAD_TOKEN',
    );
    // A token of one brand does not work for another; an image token is not a logo token.
    const other = await s.readyBrand('Other');
    const t2 = s.control.issueUploadToken({ kind: 'logo', brandId: brand.id });
    expectError(
      await s.call('PUT', `/brands/${other.id}/logo/file/signed/${t2.token}`, {
        key: null,
        body: s.uploadForm(png()),
      }),
      401,
      'INVALID_UPLOAD_TOKEN',
    );
    const img = s.control.issueUploadToken({ kind: 'image' });
    expectError(
      await s.call('PUT', `/brands/${other.id}/logo/file/signed/${img.token}`, {
        key: null,
        body: s.uploadForm(png()),
      }),
      401,
      'INVALID_UPLOAD_TOKEN',
    );
  });

  test('the signed logo endpoint answers 404 BRAND_NOT_FOUND for a deleted brand', async () => {
    const t = s.control.issueUploadToken({ kind: 'logo', brandId: brand.id });
    await s.call('DELETE', `/brands/${brand.id}`);
    expectError(
      await s.call('PUT', t.url, { key: null, body: s.uploadForm(png()) }),
      404,
      'BRAND_NOT_FOUND',
    );
  });
});

describe('POST /images/uploads (remote)', () => {
  test('stores a derived image; URL conventions give the documented errors', async () => {
    const ok = await s.post('/images/uploads', {
      imageUrl: 'https://cdn.example.com/a.png',
      brandSessionId: brand.id,
    });
    expect(ok.body.data).toMatchObject({ mimeType: 'image/png', existing: false });
    const again = await s.post('/images/uploads', {
      imageUrl: 'https://cdn.example.com/a.png',
      brandSessionId: brand.id,
    });
    expect(again.body.data).toMatchObject({ id: ok.body.data.id, existing: true });
    expectError(await s.post('/images/uploads', { imageUrl: 'ftp://x' }), 400, 'INVALID_URL');
    expectError(
      await s.post('/images/uploads', { imageUrl: 'https://x.example.com/fail-DOWNLOAD_FAILED' }),
      400,
      'DOWNLOAD_FAILED',
    );
    expectError(
      await s.post('/images/uploads', { imageUrl: 'https://x.example.com/fail-FILE_TOO_LARGE' }),
      400,
      'FILE_TOO_LARGE',
    );
    expectError(
      await s.post('/images/uploads', {
        imageUrl: 'https://x.example.com/fail-UNSUPPORTED_FORMAT',
      }),
      400,
      'UNSUPPORTED_FORMAT',
    );
    expectError(
      await s.post('/images/uploads', {
        imageUrl: 'https://x.example.com/a.png',
        brandSessionId: '00000000-0000-4000-8000-000000000001',
      }),
      404,
      'BRAND_NOT_FOUND',
    );
  });
});

describe('image edit and GET /images/{id}', () => {
  async function subject(): Promise<string> {
    return (await upload(png(160, 90), { brandSessionId: brand.id })).body.data.id;
  }
  const edit = (id: string, body: Record<string, unknown>) =>
    s.post(`/images/${id}/edit`, { brandSessionId: brand.id, prompt: 'warmer', ...body });

  test('pending → completed; 2K costs 1 credit and keeps the aspect ratio; the result is polled by ID', async () => {
    s.control.setCredits(null, { balance: 5 });
    const id = await subject();
    const r = await edit(id, {});
    expect(r.body.data).toEqual({ id: expect.any(String), status: 'pending' });
    expect(s.control.credits().balance).toBe(4);
    const newId = r.body.data.id;
    const pending = (await s.get(`/images/${newId}`)).body.data;
    expect(pending).toMatchObject({
      status: 'pending',
      imageUrl: null,
      aspectRatio: '16:9',
      actionType: 'edit',
    });
    await s.advance(5_000);
    expect((await s.get(`/images/${newId}`)).body.data.status).toBe('generating');
    await s.advance(5_000);
    const done = (await s.get(`/images/${newId}`)).body.data;
    expect(done).toMatchObject({
      status: 'completed',
      width: 2048,
      height: 1152,
      source: 'generated',
    });
    const redirect = await fetch(done.imageUrl, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const file = await fetch(done.imageUrl);
    expect(file.headers.get('content-type')).toBe('image/png');
  });

  test('4K costs 2 credits; a balance that cannot pay → 402 INSUFFICIENT_CREDITS and nothing is charged', async () => {
    s.control.setCredits(null, { balance: 3 });
    const id = await subject();
    expect((await edit(id, { imageSize: '4K' })).status).toBe(200);
    expect(s.control.credits().balance).toBe(1);
    const r = await edit(id, { imageSize: '4K' });
    expectError(r, 402, 'INSUFFICIENT_CREDITS');
    expect(r.body.error.data).toEqual({ required: 2, balance: 1 });
    expect(s.control.credits().balance).toBe(1);
    s.control.setCredits(null, { unlimited: true, balance: 0 });
    expect((await edit(id, { imageSize: '4K' })).status).toBe(200);
  });

  test('plan and billing errors: 403 FORBIDDEN, FEATURE_NOT_ENTITLED (4K), BETA_ACCESS_REQUIRED, 402 PAYMENT_REQUIRED', async () => {
    const id = await subject();
    s.control.setEntitlements(['image-edit', 'model-selection']);
    expectError(await edit(id, { imageSize: '4K' }), 403, 'FEATURE_NOT_ENTITLED');
    expect((await edit(id, { imageSize: '2K' })).status).toBe(200);
    s.control.setEntitlements(['image-edit']);
    expectError(await edit(id, { model: 'fast' }), 403, 'BETA_ACCESS_REQUIRED');
    s.control.setEntitlements([]);
    expectError(await edit(id, {}), 403, 'FORBIDDEN');
    s.control.setEntitlements(['image-edit']);
    s.control.setCredits(null, { paymentRequired: true });
    const pr = await edit(id, {});
    expectError(pr, 402, 'PAYMENT_REQUIRED');
    expect(pr.body.error.data.action_url).toMatch(/^http/);
  });

  test('a prompt containing "unsafe" fails with content_safety (and is refunded)', async () => {
    s.control.setCredits(null, { balance: 1 });
    const id = await subject();
    const r = await edit(id, { prompt: 'something unsafe' });
    await s.advance(10_000);
    const img = (await s.get(`/images/${r.body.data.id}`)).body.data;
    expect(img).toMatchObject({
      status: 'failed',
      failureReason: 'content_safety',
      imageUrl: null,
    });
    expect(s.control.credits().balance).toBe(1);
  });

  test('limits: prompt 1-2000, ≤ 9 references, imageSize and model enums, required brandSessionId', async () => {
    const id = await subject();
    expectError(await edit(id, { prompt: '' }), 400, 'BAD_REQUEST');
    expectError(await edit(id, { prompt: 'x'.repeat(2001) }), 400, 'BAD_REQUEST');
    expect((await edit(id, { prompt: 'x'.repeat(2000) })).status).toBe(200);
    const refs = Array.from({ length: 10 }, () => id);
    expectError(await edit(id, { referenceImageIds: refs }), 400, 'REFERENCE_LIMIT_EXCEEDED');
    expect((await edit(id, { referenceImageIds: refs.slice(0, 9) })).status).toBe(200);
    expectError(
      await edit(id, { referenceImageIds: ['00000000-0000-4000-8000-000000000002'] }),
      404,
      'REFERENCE_IMAGE_NOT_FOUND',
    );
    expectError(await edit(id, { imageSize: '8K' }), 400, 'BAD_REQUEST');
    expectError(await edit(id, { model: 'turbo' }), 400, 'BAD_REQUEST');
    expectError(await s.post(`/images/${id}/edit`, { prompt: 'x' }), 400, 'BAD_REQUEST');
    expectError(
      await edit('00000000-0000-4000-8000-000000000003', {}),
      404,
      'EDIT_SUBJECT_NOT_FOUND',
    );
    expectError(
      await edit(id, { brandSessionId: '00000000-0000-4000-8000-000000000004' }),
      404,
      'BRAND_NOT_FOUND',
    );
    const pendingId = (await edit(id, {})).body.data.id;
    expectError(await edit(pendingId, {}), 400, 'EDIT_SUBJECT_NOT_COMPLETED');
  });

  test('GET /images/{id}?wait=true holds until a terminal status; timeout bounds 1-295', async () => {
    const id = await subject();
    const r = await edit(id, {});
    let answered = false;
    const pending = s
      .get(`/images/${r.body.data.id}`, { query: { wait: 'true', timeout: 295 } })
      .then((x) => {
        answered = true;
        return x;
      });
    await s.held('GET /v1/images/{id}');
    await s.advance(5_000);
    await tick(30);
    expect(answered).toBe(false); // generating is not terminal
    await s.held('GET /v1/images/{id}');
    await s.advance(5_000);
    expect((await pending).body.data.status).toBe('completed');
    expectError(
      await s.get(`/images/${id}`, { query: { wait: 'true', timeout: 0 } }),
      400,
      'BAD_REQUEST',
    );
    expectError(
      await s.get(`/images/${id}`, { query: { wait: 'true', timeout: 296 } }),
      400,
      'BAD_REQUEST',
    );
    expectError(
      await s.get(`/images/00000000-0000-4000-8000-000000000005`),
      404,
      'IMAGE_NOT_FOUND',
    );
  });

  test('the default wait is 120 s of simulated time, then the current image is answered', async () => {
    const r = await edit(await subject(), {});
    s.control.setDurations({ imageMs: 1_000_000 });
    const img2 = await edit(await subject(), {});
    const pending = s.get(`/images/${img2.body.data.id}`, { query: { wait: 'true' } });
    await s.held('GET /v1/images/{id}');
    await s.advance(119_000);
    await tick(30);
    await s.held('GET /v1/images/{id}'); // still held after 119 s
    await s.advance(1_000);
    expect((await pending).body.data.status).toBe('pending');
    expect(r.status).toBe(200);
  });
});

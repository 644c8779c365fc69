// The beta flow: pending → processing → completed (with its ZIP) | failed, the limits of
// POST /brand-skills, delete, and the 500 INTERNAL_ERROR on demand.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Sim } from './helpers.ts';
import { expectError, start } from './helpers.ts';

let s: Sim;
beforeEach(async () => {
  s = await start();
});
afterEach(() => s.close());

const site = { kind: 'website', url: 'https://beta.example.com' };

describe('beta Brand Skill state machine', () => {
  test('pending → processing → completed with the ZIP as {url}', async () => {
    const r = await s.post('/brand-skills', { sources: [site], brandName: 'Beta Co' });
    expect(r.body.data).toEqual({
      id: expect.any(String),
      brandId: expect.any(String),
      status: 'pending',
    });
    const id = r.body.data.id;
    await s.advance(2_000);
    expect((await s.get(`/brand-skills/${id}`)).body.data.status).toBe('processing');
    await s.advance(30_000);
    const done = (await s.get(`/brand-skills/${id}`)).body.data;
    expect(done).toMatchObject({
      status: 'completed',
      brandId: r.body.data.brandId,
      brandName: 'Beta Co',
    });
    const zip = await fetch(done.zip.url);
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
    // Beta IDs do not transfer: the beta brand is not a /brands brand.
    expectError(await s.get(`/brands/${r.body.data.brandId}`), 404, 'BRAND_NOT_FOUND');
  });

  test('the ZIP may come as {contentBase64}', async () => {
    s.control.setBetaZipMode('base64');
    const r = await s.post('/brand-skills', { sources: [site] });
    await s.advance(32_000);
    const done = (await s.get(`/brand-skills/${r.body.data.id}`)).body.data;
    expect(Buffer.from(done.zip.contentBase64, 'base64').subarray(0, 2).toString()).toBe('PK');
  });

  test('processing → failed with a creation failure code (convention and control)', async () => {
    const a = await s.post('/brand-skills', {
      sources: [{ kind: 'website', url: 'https://x.example.com/fail-SCRAPE_FAILED' }],
    });
    await s.advance(32_000);
    expect((await s.get(`/brand-skills/${a.body.data.id}`)).body.data).toMatchObject({
      status: 'failed',
      failure: { code: 'SCRAPE_FAILED' },
    });
    s.control.nextBetaOutcome('BRAND_GUIDE_BUILD_FAILED');
    const b = await s.post('/brand-skills', { sources: [site] });
    await s.advance(32_000);
    expect((await s.get(`/brand-skills/${b.body.data.id}`)).body.data).toMatchObject({
      status: 'failed',
      failure: { code: 'BRAND_GUIDE_BUILD_FAILED' },
    });
  });

  test('wait=true holds until completed', async () => {
    const r = await s.post('/brand-skills', { sources: [site] });
    const pending = s.get(`/brand-skills/${r.body.data.id}`, { query: { wait: 'true' } });
    await s.held('GET /v1/brand-skills/{id}');
    await s.advance(2_000);
    await s.advance(30_000);
    expect((await pending).body.data.status).toBe('completed');
  });

  test('DELETE removes the job; a second delete → 404 BRAND_SKILL_NOT_FOUND', async () => {
    const r = await s.post('/brand-skills', { sources: [site] });
    expect((await s.call('DELETE', `/brand-skills/${r.body.data.id}`)).status).toBe(200);
    expectError(
      await s.call('DELETE', `/brand-skills/${r.body.data.id}`),
      404,
      'BRAND_SKILL_NOT_FOUND',
    );
    expectError(await s.get(`/brand-skills/${r.body.data.id}`), 404, 'BRAND_SKILL_NOT_FOUND');
  });
});

describe('POST /brand-skills limits', () => {
  const files = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      kind: 'file',
      url: `https://files.example.com/${i}.docx`,
    }));

  test('sources 1-30 elements → else 400 INVALID_SOURCE', async () => {
    expectError(await s.post('/brand-skills', { sources: [] }), 400, 'INVALID_SOURCE');
    expectError(await s.post('/brand-skills', { sources: files(31) }), 400, 'INVALID_SOURCE');
    expect((await s.post('/brand-skills', { sources: files(30) })).status).toBe(200);
    expect((await s.post('/brand-skills', { sources: files(1) })).status).toBe(200);
    expectError(await s.post('/brand-skills', {}), 400, 'INVALID_SOURCE');
  });

  test('at most one website; no PDFs; bad shapes → 400 INVALID_SOURCE', async () => {
    expectError(
      await s.post('/brand-skills', {
        sources: [site, { kind: 'website', url: 'https://two.example.com' }],
      }),
      400,
      'INVALID_SOURCE',
    );
    expectError(
      await s.post('/brand-skills', {
        sources: [{ kind: 'pdf', url: 'https://x.example.com/a.pdf' }],
      }),
      400,
      'INVALID_SOURCE',
    );
    expectError(
      await s.post('/brand-skills', { sources: [{ kind: 'website' }] }),
      400,
      'INVALID_SOURCE',
    );
    expectError(
      await s.post('/brand-skills', { sources: [{ kind: 'website', url: 'nope' }] }),
      400,
      'INVALID_SOURCE',
    );
    expectError(
      await s.post('/brand-skills', { sources: ['https://x.example.com'] }),
      400,
      'INVALID_SOURCE',
    );
    expectError(
      await s.post('/brand-skills', {
        sources: [{ kind: 'carrier-pigeon', url: 'https://x.example.com' }],
      }),
      400,
      'INVALID_SOURCE',
    );
  });

  test('a staged PDF is rejected by the beta flow', async () => {
    const pdf = Buffer.from('%PDF-1.7\n...');
    const st = await s.post('/uploads', {
      fileName: 'guide.pdf',
      mimeType: 'application/pdf',
      size: pdf.length,
    });
    await fetch(st.body.data.uploadUrl, { method: 'PUT', body: pdf });
    expectError(
      await s.post('/brand-skills', { sources: [{ kind: 'file', uploadId: st.body.data.id }] }),
      400,
      'INVALID_SOURCE',
    );
  });

  test('brandName 1-120, instructions ≤ 4000', async () => {
    expectError(
      await s.post('/brand-skills', { sources: [site], brandName: '' }),
      400,
      'BAD_REQUEST',
    );
    expectError(
      await s.post('/brand-skills', { sources: [site], brandName: 'x'.repeat(121) }),
      400,
      'BAD_REQUEST',
    );
    expect(
      (await s.post('/brand-skills', { sources: [site], brandName: 'x'.repeat(120) })).status,
    ).toBe(200);
    expectError(
      await s.post('/brand-skills', { sources: [site], instructions: 'x'.repeat(4001) }),
      400,
      'BAD_REQUEST',
    );
    expect(
      (await s.post('/brand-skills', { sources: [site], instructions: 'x'.repeat(4000) })).status,
    ).toBe(200);
  });

  test('500 INTERNAL_ERROR when creation fails (on demand)', async () => {
    s.control.failNext('POST /v1/brand-skills');
    expectError(await s.post('/brand-skills', { sources: [site] }), 500, 'INTERNAL_ERROR');
  });
});

describe('POST /brands limits', () => {
  test('sources 1-30, one website, one Instagram; instructions ≤ 4000', async () => {
    const many = Array.from({ length: 31 }, (_, i) => ({
      kind: 'pdf',
      url: `https://x.example.com/${i}.pdf`,
    }));
    expectError(await s.post('/brands', { sources: many }), 400, 'INVALID_SOURCE');
    expect((await s.post('/brands', { sources: many.slice(0, 30) })).status).toBe(200);
    const ig = { kind: 'instagram', url: 'https://instagram.com/acme' };
    expectError(await s.post('/brands', { sources: [ig, ig] }), 400, 'INVALID_SOURCE');
    expectError(
      await s.post('/brands', {
        sources: [
          { kind: 'website', url: 'https://a.example.com' },
          { kind: 'website', url: 'https://b.example.com' },
        ],
      }),
      400,
      'INVALID_SOURCE',
    );
    expectError(
      await s.post('/brands', { sources: [ig], instructions: 'x'.repeat(4001) }),
      400,
      'BAD_REQUEST',
    );
    expect(
      (await s.post('/brands', { sources: [ig], instructions: 'x'.repeat(4000) })).status,
    ).toBe(200);
  });

  test('/brands accepts PDFs, by URL or staged upload', async () => {
    const pdf = Buffer.from('%PDF-1.7\nbrand book');
    const st = await s.post('/uploads', {
      fileName: 'book.pdf',
      mimeType: 'application/pdf',
      size: pdf.length,
    });
    expectError(
      await s.post('/brands', { sources: [{ kind: 'pdf', uploadId: st.body.data.id }] }),
      400,
      'INVALID_SOURCE',
    );
    expect((await fetch(st.body.data.uploadUrl, { method: 'PUT', body: pdf })).status).toBe(200);
    const r = await s.post('/brands', { sources: [{ kind: 'pdf', uploadId: st.body.data.id }] });
    expect(r.status).toBe(200);
    await s.advance(30_000);
    expect((await s.get(`/brands/${r.body.data.id}`)).body.data).toMatchObject({
      status: 'ready',
      name: 'Untitled brand',
    });
  });
});

// Credits, workspaces, account, and staged uploads (docs/service.md).
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Sim } from './helpers.ts';
import { expectError, start } from './helpers.ts';
import type { Json } from './helpers.ts';

let s: Sim;
beforeEach(async () => {
  s = await start();
});
afterEach(() => s.close());

describe('GET /credits', () => {
  test('personal by default; a team workspace by workspaceId; unlimited', async () => {
    s.control.setCredits(null, { balance: 42 });
    const team = s.control.addWorkspace({ name: 'Team', balance: 7, unlimited: true });
    expect((await s.get('/credits')).body).toEqual({ data: { balance: 42, unlimited: false } });
    expect((await s.get('/credits', { query: { workspaceId: team.id } })).body.data).toEqual({
      balance: 7,
      unlimited: true,
    });
  });

  test('an unknown or inaccessible workspace → 404 WORKSPACE_NOT_FOUND', async () => {
    const hidden = s.control.addWorkspace({ name: 'Hidden', accessible: false });
    expectError(
      await s.get('/credits', { query: { workspaceId: hidden.id } }),
      404,
      'WORKSPACE_NOT_FOUND',
    );
    expectError(
      await s.get('/credits', { query: { workspaceId: 'nope' } }),
      404,
      'WORKSPACE_NOT_FOUND',
    );
  });

  test('a failed balance check → 500 INTERNAL_SERVER_ERROR', async () => {
    s.control.failNext('GET /v1/credits');
    expectError(await s.get('/credits'), 500, 'INTERNAL_SERVER_ERROR');
    expect((await s.get('/credits')).status).toBe(200);
  });
});

describe('GET /workspaces and GET /account', () => {
  test('personal first (id null), then accessible teams only', async () => {
    const team = s.control.addWorkspace({ name: 'Studio' });
    s.control.addWorkspace({ name: 'Hidden', accessible: false });
    const r = await s.get('/workspaces');
    expect(r.body.data.workspaces).toEqual([
      { id: null, name: 'Personal', is_personal: true },
      { id: team.id, name: 'Studio', is_personal: false },
    ]);
    s.control.setAccount({ email: 'a@b.example', name: 'A B' });
    expect((await s.get('/account')).body).toEqual({ data: { email: 'a@b.example', name: 'A B' } });
  });
});

describe('staged uploads', () => {
  test('POST /uploads → PUT raw bytes (no API key) → usable as a source', async () => {
    const bytes = Buffer.from('%PDF-1.4 guide');
    const st = await s.post('/uploads', {
      fileName: 'guide.pdf',
      mimeType: 'application/pdf',
      size: bytes.length,
    });
    expect(st.body.data).toEqual({
      id: expect.any(String),
      uploadUrl: expect.stringMatching(/^http/),
      expiresAt: expect.any(String),
    });
    const put = await fetch(st.body.data.uploadUrl, {
      method: 'PUT',
      body: bytes,
      headers: { 'content-type': 'application/pdf' },
    });
    expect(put.status).toBe(200);
    expect(
      (await s.post('/brands', { sources: [{ kind: 'pdf', uploadId: st.body.data.id }] })).status,
    ).toBe(200);
  });

  test('size mismatch, a wrong token, expiry and the 100 MiB limit', async () => {
    const st = await s.post('/uploads', {
      fileName: 'a.docx',
      mimeType: 'application/octet-stream',
      size: 10,
    });
    const short = await fetch(st.body.data.uploadUrl, { method: 'PUT', body: Buffer.alloc(5) });
    expect(short.status).toBe(400);
    expect(((await short.json()) as Json).error.code).toBe('SIZE_MISMATCH');
    const wrong = await fetch(st.body.data.uploadUrl.replace(/\/[^/]+$/, '/wrong'), {
      method: 'PUT',
      body: Buffer.alloc(10),
    });
    expect(((await wrong.json()) as Json).error.code).toBe('INVALID_UPLOAD_TOKEN');
    await s.advance(60 * 60_000);
    const late = await fetch(st.body.data.uploadUrl, { method: 'PUT', body: Buffer.alloc(10) });
    expect(((await late.json()) as Json).error.code).toBe('INVALID_UPLOAD_TOKEN');
    expectError(
      await s.post('/uploads', { fileName: 'big', mimeType: 'x', size: 100 * 1024 * 1024 + 1 }),
      400,
      'FILE_TOO_LARGE',
    );
    expect(
      (await s.post('/uploads', { fileName: 'ok', mimeType: 'x', size: 100 * 1024 * 1024 })).status,
    ).toBe(200);
    expectError(
      await s.post('/uploads', { fileName: 'x', mimeType: 'x', size: 0 }),
      400,
      'BAD_REQUEST',
    );
  });

  test('source files over 256 MiB combined → 400 INVALID_SOURCE', async () => {
    const size = 100 * 1024 * 1024;
    const bytes = Buffer.alloc(size, 0x41);
    const staged: string[] = [];
    for (let i = 0; i < 3; i++) {
      const st = await s.post('/uploads', {
        fileName: `part${i}.docx`,
        mimeType: 'application/octet-stream',
        size,
      });
      expect((await fetch(st.body.data.uploadUrl, { method: 'PUT', body: bytes })).status).toBe(
        200,
      );
      staged.push(st.body.data.id);
    }
    const sources = staged.map((uploadId) => ({ kind: 'file', uploadId }));
    expectError(await s.post('/brands', { sources }), 400, 'INVALID_SOURCE');
    expect((await s.post('/brands', { sources: sources.slice(0, 2) })).status).toBe(200);
  });

  test('an upload of another workspace → 400 INVALID_SOURCE', async () => {
    const team = s.control.addWorkspace({ name: 'T' });
    const st = await s.post('/uploads', {
      fileName: 'a.pdf',
      mimeType: 'application/pdf',
      size: 5,
      workspaceId: team.id,
    });
    await fetch(st.body.data.uploadUrl, { method: 'PUT', body: Buffer.from('%PDF-') });
    expectError(
      await s.post('/brands', { sources: [{ kind: 'pdf', uploadId: st.body.data.id }] }),
      400,
      'INVALID_SOURCE',
    );
    expect(
      (
        await s.post('/brands', {
          workspaceId: team.id,
          sources: [{ kind: 'pdf', uploadId: st.body.data.id }],
        })
      ).status,
    ).toBe(200);
  });
});

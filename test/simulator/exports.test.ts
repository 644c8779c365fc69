// Exports: preparing → ready | failed (failure.retryable), reuse for an unchanged skill, real
// ZIPs with nested folders behind a download URL that honours Range.
import yauzl from 'yauzl';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Sim } from './helpers.ts';
import { expectError, start } from './helpers.ts';

let s: Sim;
beforeEach(async () => {
  s = await start();
});
afterEach(() => s.close());

function unzipNames(buf: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const files = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.readEntry();
    });
  });
}

async function readyExport(brandId: string) {
  const post = await s.post(`/brands/${brandId}/exports`);
  await s.advance(5_000);
  return (await s.get(`/brands/${brandId}/exports/${post.body.data.skillId}`)).body.data;
}

describe('export state machine', () => {
  test('preparing → ready with a download URL of a real Skill ZIP', async () => {
    const b = await s.readyBrand('Northwind Coffee');
    const post = await s.post(`/brands/${b.id}/exports`);
    expect(post.status).toBe(200);
    expect(post.body.data).toMatchObject({ skillId: b.skillId, status: 'preparing' });
    const polled = await s.get(`/brands/${b.id}/exports/${b.skillId}`);
    expect(polled.body.data.status).toBe('preparing');
    expect(polled.body.data.download).toBeUndefined();
    await s.advance(5_000);
    const ready = (await s.get(`/brands/${b.id}/exports/${b.skillId}`)).body.data;
    expect(ready.status).toBe('ready');
    const r = await fetch(ready.download.url);
    expect(r.status).toBe(200);
    const zip = Buffer.from(await r.arrayBuffer());
    expect(Number(r.headers.get('content-length'))).toBe(zip.length);
    const files = await unzipNames(zip);
    expect([...files.keys()].sort()).toEqual([
      'SKILL.md',
      'assets/colors/palette.css',
      'assets/colors/palette.json',
      // The heading's face, named for its family.
      expect.stringMatching(/^assets\/fonts\/[a-z0-9-]+-regular\.woff$/),
      'assets/logo/primary.png',
      'assets/typography/typography.json',
      'guidelines/visual/colors.md',
      'guidelines/visual/identity.md',
      'guidelines/visual/typography.md',
      'guidelines/voice.md',
      'profile.json',
    ]);
    const profile = JSON.parse((files.get('profile.json') as Buffer).toString('utf8'));
    expect(profile).toMatchObject({ name: 'Northwind Coffee', skillId: b.skillId });
    expect((files.get('assets/logo/primary.png') as Buffer).subarray(1, 4).toString()).toBe('PNG');
  });

  test('a POST for an unchanged active skill reuses the export (preparing and ready)', async () => {
    const b = await s.readyBrand();
    const first = await s.post(`/brands/${b.id}/exports`);
    const again = await s.post(`/brands/${b.id}/exports`);
    expect(again.body.data.id).toBe(first.body.data.id);
    await s.advance(5_000);
    const third = await s.post(`/brands/${b.id}/exports`);
    expect(third.body.data).toMatchObject({ id: first.body.data.id, status: 'ready' });
    expect(
      s.control.log({ route: 'POST /v1/brands/{id}/exports' }).filter((e) => e.created),
    ).toHaveLength(1);
  });

  test('preparing → failed with failure.retryable true: the repeated POST starts a new export', async () => {
    const b = await s.readyBrand();
    s.control.nextExportOutcome({ retryable: true });
    const first = await s.post(`/brands/${b.id}/exports`);
    await s.advance(5_000);
    const failed = (await s.get(`/brands/${b.id}/exports/${b.skillId}`)).body.data;
    expect(failed).toMatchObject({ status: 'failed', failure: { retryable: true } });
    const retry = await s.post(`/brands/${b.id}/exports`);
    expect(retry.body.data.id).not.toBe(first.body.data.id);
    expect(retry.body.data.status).toBe('preparing');
    await s.advance(5_000);
    expect((await s.get(`/brands/${b.id}/exports/${b.skillId}`)).body.data.status).toBe('ready');
  });

  test('failure.retryable false: repeating the POST returns the same failed export', async () => {
    const b = await s.readyBrand();
    s.control.nextExportOutcome({ retryable: false });
    const first = await s.post(`/brands/${b.id}/exports`);
    await s.advance(5_000);
    const again = await s.post(`/brands/${b.id}/exports`);
    expect(again.body.data).toMatchObject({
      id: first.body.data.id,
      status: 'failed',
      failure: { retryable: false },
    });
  });

  test('a new active skill gets a new export', async () => {
    const b = await s.readyBrand();
    const e1 = await readyExport(b.id);
    const edit = s.control.seedEdit({ brandId: b.id, status: 'awaiting_approval' });
    await s.post(`/brands/${b.id}/edits/${edit.id}/apply`);
    const e2 = await readyExport(b.id);
    expect(e2.skillId).toBe(edit.targetSkillId);
    expect(e2.id).not.toBe(e1.id);
    expect(e2.download.url).not.toBe(e1.download.url);
  });

  test('errors: 409 BRAND_SKILL_UNAVAILABLE while analyzing or failed, 404 BRAND_NOT_FOUND, 500 on demand', async () => {
    const analyzing = await s.createBrand();
    expectError(await s.post(`/brands/${analyzing}/exports`), 409, 'BRAND_SKILL_UNAVAILABLE');
    const failed = await s.control.seedBrand({ status: 'failed' });
    expectError(await s.post(`/brands/${failed.id}/exports`), 409, 'BRAND_SKILL_UNAVAILABLE');
    expectError(
      await s.post(`/brands/00000000-0000-4000-8000-000000000009/exports`),
      404,
      'BRAND_NOT_FOUND',
    );
    const b = await s.readyBrand();
    s.control.failNext('POST /v1/brands/{id}/exports');
    expectError(await s.post(`/brands/${b.id}/exports`), 500, 'INTERNAL_ERROR');
    expectError(
      await s.get(`/brands/${b.id}/exports/00000000-0000-4000-8000-000000000009`),
      404,
      'EXPORT_NOT_FOUND',
    );
  });

  test('GET export with wait=true holds until ready', async () => {
    const b = await s.readyBrand();
    await s.post(`/brands/${b.id}/exports`);
    const pending = s.get(`/brands/${b.id}/exports/${b.skillId}`, { query: { wait: 'true' } });
    await s.held('GET /v1/brands/{id}/exports/{skillId}');
    await s.advance(5_000);
    expect((await pending).body.data.status).toBe('ready');
  });
});

describe('downloads', () => {
  test('Range requests answer 206 with Content-Range; a bad range 416', async () => {
    const b = await s.readyBrand();
    const e = await readyExport(b.id);
    const full = Buffer.from(await (await fetch(e.download.url)).arrayBuffer());
    const part = await fetch(e.download.url, { headers: { range: 'bytes=10-' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-${full.length - 1}/${full.length}`);
    expect(Number(part.headers.get('content-length'))).toBe(full.length - 10);
    expect(Buffer.from(await part.arrayBuffer()).equals(full.subarray(10))).toBe(true);
    const suffix = await fetch(e.download.url, { headers: { range: 'bytes=-5' } });
    expect(Buffer.from(await suffix.arrayBuffer()).equals(full.subarray(-5))).toBe(true);
    const bad = await fetch(e.download.url, { headers: { range: `bytes=${full.length}-` } });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe(`bytes */${full.length}`);
    // If-Range with a stale validator sends the whole file.
    const stale = await fetch(e.download.url, {
      headers: { range: 'bytes=10-', 'if-range': '"old"' },
    });
    expect(stale.status).toBe(200);
  });

  test('download paths are unguessable: a wrong token is 404', async () => {
    const b = await s.readyBrand();
    const e = await readyExport(b.id);
    const wrong = e.download.url.replace(/exports\/[^/]+\//, 'exports/AAAAAAAAAAAAAAAAAAAAAAAA/');
    expect((await fetch(wrong)).status).toBe(404);
  });
});

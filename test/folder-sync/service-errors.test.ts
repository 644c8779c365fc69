// What the service says no to, and what goes wrong during a send: permanent refusals fail
// the file with the reason and are not retried until the file changes; transient ones are
// retried; a file written to during its send is never recorded with a stale hash.
import { writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeJpeg, makePng, makePngOfSize } from '../folder-parts/fixtures.ts';
import { folderSection, harness, sha256, waitFor, type Harness } from './harness.ts';

const UPLOAD = 'POST /v1/images/uploads/file';
let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(async () => {
  await h.close();
});

const sends = () => h.sim.control.log({ route: UPLOAD }).length;

describe('refusals and retries', () => {
  test.each([
    [400, 'UNSUPPORTED_FORMAT', 'image must be PNG, JPEG, WebP or AVIF'],
    [422, 'BRAND_NOT_FOUND', 'brand session not found'],
    [400, 'FILE_TOO_LARGE', 'image is larger than 10 MB'],
  ])(
    '%i %s fails the file with the reason, once; a change to the file tries again',
    async (status, code, message) => {
      const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
      const engine = h.open();
      await engine.syncOnce();
      await h.put('Acme', 'a.png', makePng({ seed: 1 }));
      h.sim.control.failNext(UPLOAD, { status, code, message });
      const report = await engine.syncOnce();
      expect(report.ok).toBe(false);
      expect(report.failures).toEqual([
        { area: 'file', subject: 'Acme/a.png', brandId: brand.id, code, message },
      ]);
      expect(h.file(brand.id, 'a.png')).toMatchObject({
        state: 'failed',
        reason: message,
        lastError: code,
        nextRetryAt: null,
      });
      expect(sends()).toBe(1);
      const section = folderSection(report);
      expect(section.failed).toEqual([
        {
          brandId: brand.id,
          folder: 'Acme',
          path: 'a.png',
          code,
          reason: message,
          willRetry: false,
        },
      ]);

      // Unchanged: not sent again, and the pass has nothing to fail.
      const again = await engine.syncOnce();
      expect(again.ok).toBe(true);
      expect(sends()).toBe(1);

      const fixed = await h.put('Acme', 'a.png', makePng({ seed: 2 }));
      expect((await engine.syncOnce()).ok).toBe(true);
      expect(h.file(brand.id, 'a.png')).toMatchObject({ state: 'uploaded', sha256: fixed });
      expect(sends()).toBe(2);
    },
  );

  test('a copy of bytes the service refused is skipped with that reason, not sent', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    const bytes = makePng({ seed: 3 });
    await h.put('Acme', 'a.png', bytes);
    h.sim.control.failNext(UPLOAD, { status: 400, code: 'UNSUPPORTED_FORMAT', message: 'no' });
    await engine.syncOnce();
    await h.put('Acme', 'b.png', bytes);
    expect((await engine.syncOnce()).ok).toBe(true);
    expect(sends()).toBe(1);
    expect(h.file(brand.id, 'b.png')).toMatchObject({
      state: 'skipped',
      lastError: 'UNSUPPORTED_FORMAT',
      reason: 'Same bytes as "a.png": no',
    });
  });

  test('server errors are retried until the upload goes through; the bytes are stored once', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    const sha = await h.put('Acme', 'a.png', makePng({ seed: 4 }));
    h.sim.control.failNext(UPLOAD, { status: 503, code: 'UNAVAILABLE', count: 5 });
    const report = await engine.syncOnce();
    expect(report.ok).toBe(true);
    expect(sends()).toBe(6);
    expect(h.received(brand.id)).toEqual(new Map([[sha, 1]]));
    expect(h.file(brand.id, 'a.png')).toMatchObject({ state: 'uploaded', existing: false });
  });
});

describe('transient failures and progress', () => {
  test('an upload that runs out of attempts fails for now; the next pass tries it again', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    const sha = await h.put('Acme', 'a.png', makePng({ seed: 5 }));
    // 3 sends per attempt (the client's own retries), 8 attempts.
    h.sim.control.failNext(UPLOAD, { status: 503, code: 'UNAVAILABLE', count: 24 });
    const report = await engine.syncOnce();
    expect(report.ok).toBe(false);
    expect(report.failures[0]).toMatchObject({
      area: 'file',
      subject: 'Acme/a.png',
      code: 'UNAVAILABLE',
    });
    expect(h.file(brand.id, 'a.png')).toMatchObject({ state: 'failed', lastError: 'UNAVAILABLE' });
    expect(h.file(brand.id, 'a.png')?.nextRetryAt).not.toBeNull();
    expect(folderSection(report).failed[0]).toMatchObject({ path: 'a.png', willRetry: true });

    const again = await engine.syncOnce();
    expect(again.ok).toBe(true);
    expect(h.file(brand.id, 'a.png')).toMatchObject({ state: 'uploaded', nextRetryAt: null });
    expect(h.received(brand.id)).toEqual(new Map([[sha, 1]]));
  });

  test('a large file being sent shows as uploading, with the bytes sent so far', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    // The service takes its time before reading the body: the send stalls part-way.
    h.sim.control.setFaults(`${UPLOAD}: latency=1500-1500`);
    const bytes = makePngOfSize(9_000_000);
    await h.put('Acme', 'big.png', bytes);
    const pass = engine.syncOnce();
    let seen: { state: string; bytesSent: number } | undefined;
    await waitFor('the uploading state', () => {
      const row = h.file(brand.id, 'big.png');
      if (row?.state === 'uploading' && row.bytesSent > 0) seen = row;
      return seen !== undefined;
    });
    expect(seen!.bytesSent).toBeLessThan(bytes.length);
    expect((await pass).ok).toBe(true);
    expect(h.file(brand.id, 'big.png')).toMatchObject({
      state: 'uploaded',
      bytesSent: bytes.length,
    });
  });
});

describe('a file written to during its send', () => {
  test('is taken again: the row holds the new bytes, the old hash is never recorded', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const first = makeJpeg(1);
    const second = makeJpeg(2);
    expect(second.length).toBe(first.length); // same size: only the stat times tell
    const file = path.join(h.root, 'Acme', 'photo.jpg');
    let wrote = false;
    const engine = h.open(
      {},
      {
        onRequest: ({ endpoint }) => {
          // The moment the request leaves, with the bytes read before it: the file changes
          // under the send, so what was sent can no longer be vouched for.
          if (endpoint === 'POST /images/uploads/file' && !wrote) {
            wrote = true;
            writeFileSync(file, second);
          }
        },
      },
    );
    await engine.syncOnce();
    await writeFile(file, first);
    const report = await engine.syncOnce();
    expect(report.ok).toBe(true);
    expect(wrote).toBe(true);
    const row = h.file(brand.id, 'photo.jpg');
    expect(row).toMatchObject({ state: 'uploaded', sha256: sha256(second) });
    // The send that the write overtook is not recorded, for the row or for its bytes.
    expect(engine.store.files.uploadOf(brand.id, sha256(first))).toBeUndefined();
    const uploads = h.sim.control.uploads(brand.id);
    expect(uploads.find((u) => u.sha256 === sha256(second))?.received).toBeGreaterThanOrEqual(1);
    expect(row?.imageId).toBe(uploads.find((u) => u.sha256 === sha256(second))?.id);
    expect(engine.store.files.uploadOf(brand.id, sha256(second))?.imageId).toBe(row?.imageId);
  });
});

// Uploads streamed from disk: progress up to the request's length, cancellation, and local
// problems (a missing file) reported before anything is sent.
import { expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { apiError, png, useBrandSetting, writeFile } from './helpers.ts';

const t = useBrandSetting('Uploads');

test('progress climbs to the full length of the request, file included', async () => {
  // A real PNG padded to 3 MB: streamed in many chunks.
  const file = await writeFile(
    t.dir,
    'large.png',
    Buffer.concat([png(42, 64, 64), Buffer.alloc(3_000_000)]),
  );
  const size = (await fs.promises.stat(file)).size;
  const seen: Array<{ transferred: number; total: number | undefined }> = [];
  const result = await t.client.uploadImage(
    t.brandId,
    { path: file },
    { onProgress: (p) => seen.push(p) },
  );
  expect(result.existing).toBe(false);
  expect(seen.length).toBeGreaterThan(2);
  const last = seen.at(-1);
  expect(last?.total).toBeGreaterThan(size); // the multipart framing adds a few hundred bytes
  expect(last?.transferred).toBe(last?.total);
  expect(seen.every((p, i) => i === 0 || p.transferred >= (seen[i - 1]?.transferred ?? 0))).toBe(
    true,
  );
  const stored = t.sim.control.uploads(t.brandId);
  expect(stored.find((u) => u.id === result.id)?.received).toBe(1);
});

test('an aborted upload stops with ABORTED', async () => {
  const file = await writeFile(
    t.dir,
    'abort.png',
    Buffer.concat([png(43, 64, 64), Buffer.alloc(2_000_000)]),
  );
  const controller = new AbortController();
  const pending = apiError(
    t.client.uploadImage(
      t.brandId,
      { path: file },
      { signal: controller.signal, onProgress: () => controller.abort() },
    ),
  );
  expect(await pending).toMatchObject({ code: 'ABORTED', kind: 'aborted' });
});

test('a missing file is INVALID_INPUT and nothing is sent', async () => {
  const before = t.sim.control.log().length;
  const error = await apiError(
    t.client.uploadImage(t.brandId, { path: path.join(t.dir, 'nope.png') }),
  );
  expect(error).toMatchObject({ code: 'INVALID_INPUT', kind: 'client' });
  expect(error.message).toContain('does not exist');
  expect(t.sim.control.log().length).toBe(before);
});

test('the type is read from the bytes when not given', async () => {
  const file = await writeFile(t.dir, 'no-extension', png(44));
  const result = await t.client.uploadImage(t.brandId, { path: file });
  expect(result.mimeType).toBe('image/png');
});

test('bytes already read are sent as they are, with progress, and the file is not read again', async () => {
  const content = Buffer.concat([png(45, 64, 64), Buffer.alloc(3_000_000, 7)]);
  // The path only names the file: it holds other bytes, which must not be what is sent.
  const file = await writeFile(t.dir, 'in-memory.png', png(46));
  const seen: Array<{ transferred: number; total: number | undefined }> = [];
  const result = await t.client.uploadImage(
    t.brandId,
    { path: file, content },
    { onProgress: (p) => seen.push(p) },
  );
  expect(result.mimeType).toBe('image/png'); // read from the bytes given
  const sha = createHash('sha256').update(content).digest('hex');
  expect(t.sim.control.uploads(t.brandId).find((u) => u.id === result.id)?.sha256).toBe(sha);
  expect(seen.length).toBeGreaterThan(2);
  expect(seen.at(-1)?.transferred).toBe(seen.at(-1)?.total);
  expect(seen.at(-1)?.total).toBeGreaterThan(content.length);
});

test('bytes over the limit are refused before anything is sent', async () => {
  const before = t.sim.control.log().length;
  const error = await apiError(
    t.client.uploadImage(t.brandId, {
      path: path.join(t.dir, 'huge.png'),
      content: Buffer.alloc(10 * 1024 * 1024 + 1),
    }),
  );
  expect(error).toMatchObject({ code: 'INVALID_INPUT', kind: 'client' });
  expect(t.sim.control.log().length).toBe(before);
});

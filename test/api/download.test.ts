// Downloads: streamed to `.part` with progress, resumed with Range after a cut, length
// checked, renamed into place only when complete.
import { expect, test } from 'vitest';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { apiError, clientFor, startScripted, useBrandSetting } from './helpers.ts';

const t = useBrandSetting('Downloads');

/** A Library video with these bytes, and its URL as the service lists it. */
async function mediaWith(content: Buffer): Promise<{ url: string; size: number }> {
  const [id] = t.sim.control.seedLibrary(t.brandId, {
    items: [{ type: 'video', content, mimeType: 'video/mp4' }],
  }).ids;
  const page = await t.client.listLibraryPage(t.brandId, { limit: 100 });
  const item = page.items.find((m) => m.id === id);
  if (!item) throw new Error('seeded media not listed');
  return { url: item.url, size: item.fileSize };
}

const downloads = () => t.sim.control.log().filter((e) => e.path.startsWith('/files/'));

test('a whole file, with progress up to its size; no .part left behind', async () => {
  const content = randomBytes(300_000);
  const { url, size } = await mediaWith(content);
  const dest = path.join(t.dir, 'whole.mp4');
  const seen: number[] = [];
  const result = await t.client.downloadToFile(url, dest, {
    expectedSize: size,
    onProgress: (p) => seen.push(p.received),
  });
  expect(result).toEqual({ path: dest, bytes: content.length, resumed: false });
  expect((await fs.promises.readFile(dest)).equals(content)).toBe(true);
  expect(seen.at(-1)).toBe(content.length);
  expect(seen.every((n, i) => i === 0 || n >= (seen[i - 1] as number))).toBe(true);
  expect(fs.existsSync(`${dest}.part`)).toBe(false);
});

test('a partial file is resumed with Range (206) and completed', async () => {
  const content = randomBytes(120_000);
  const { url } = await mediaWith(content);
  const dest = path.join(t.dir, 'resumed.mp4');
  await fs.promises.writeFile(`${dest}.part`, content.subarray(0, 50_000));
  const result = await t.client.downloadToFile(url, dest, { expectedSize: content.length });
  expect(result.resumed).toBe(true);
  expect((await fs.promises.readFile(dest)).equals(content)).toBe(true);
  expect(downloads().at(-1)?.status).toBe(206);
});

test('a body cut short is resumed where it stopped', async () => {
  const content = randomBytes(400_000);
  const { url } = await mediaWith(content);
  const dest = path.join(t.dir, 'cut.mp4');
  t.sim.control.injectFault('GET /files/*', 'truncate');
  const before = downloads().length;
  const result = await t.client.downloadToFile(url, dest);
  expect((await fs.promises.readFile(dest)).equals(content)).toBe(true);
  const attempts = downloads().slice(before);
  expect(attempts.map((e) => e.outcome)).toEqual(['truncate', 'processed']);
  expect(result.resumed).toBe(true);
  expect(attempts[1]?.status).toBe(206);
});

test('a length that does not match is an error, and nothing takes the place of the file', async () => {
  const content = randomBytes(10_000);
  const { url } = await mediaWith(content);
  const dest = path.join(t.dir, 'short.mp4');
  await fs.promises.writeFile(dest, 'the good old copy');
  const error = await apiError(
    t.client.downloadToFile(url, dest, { expectedSize: content.length + 5 }),
  );
  // The host answered: a server's fault, never a sign of being offline.
  expect(error).toMatchObject({ code: 'INCOMPLETE_DOWNLOAD', kind: 'server' });
  expect(await fs.promises.readFile(dest, 'utf8')).toBe('the good old copy');
});

test('a stale .part longer than the file is dropped, not spliced', async () => {
  const content = randomBytes(5_000);
  const { url } = await mediaWith(content);
  const dest = path.join(t.dir, 'stale.mp4');
  await fs.promises.writeFile(`${dest}.part`, randomBytes(9_000));
  const result = await t.client.downloadToFile(url, dest, { expectedSize: content.length });
  expect(result.resumed).toBe(false);
  expect((await fs.promises.readFile(dest)).equals(content)).toBe(true);
});

test('a missing file is a permanent error; an aborted download stops', async () => {
  const dest = path.join(t.dir, 'missing.bin');
  const before = downloads().length;
  const error = await apiError(t.client.downloadToFile('/files/media/nope/nope', dest));
  expect(error).toMatchObject({ status: 404, kind: 'client' });
  expect(downloads().length).toBe(before + 1);
  const controller = new AbortController();
  controller.abort();
  const { url } = await mediaWith(randomBytes(1000));
  expect(
    await apiError(t.client.downloadToFile(url, dest, { signal: controller.signal })),
  ).toMatchObject({
    code: 'ABORTED',
  });
  expect(fs.existsSync(dest)).toBe(false);
});

test('a server that ignores Range (200) gets the file from the start, not spliced', async () => {
  const content = randomBytes(20_000);
  const server = await startScripted(() => ({
    headers: { 'content-type': 'application/zip' },
    body: content,
  }));
  try {
    const plain = clientFor({ baseUrl: server.baseUrl, key: 'sk-range' });
    const dest = path.join(t.dir, 'no-range.zip');
    await fs.promises.writeFile(`${dest}.part`, randomBytes(7_000));
    const result = await plain.downloadToFile('/z.zip', dest);
    expect(server.seen[0]?.headers.range).toBe('bytes=7000-');
    expect(result).toMatchObject({ bytes: content.length, resumed: false });
    expect((await fs.promises.readFile(dest)).equals(content)).toBe(true);
  } finally {
    await server.close();
  }
});

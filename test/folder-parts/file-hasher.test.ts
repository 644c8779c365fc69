import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  appendFileSync,
  closeSync,
  openSync,
  readFileSync,
  renameSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HasherPool } from '../../main/engine/folder-parts/file-hasher.ts';
import { sha256FileSync } from '../../main/engine/folder-parts/sha256-file.ts';
import { classifyFile } from '../../main/engine/folder-parts/file-classifier.ts';
import { makeGif, makePng, makePngOfSize, makeSvg, makeTempDir } from './fixtures.ts';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function bytes(length: number, seed: number): Buffer {
  const b = Buffer.alloc(length);
  for (let i = 0; i < length; i++) b[i] = (i * 31 + seed * 7 + (i >> 8)) & 0xff;
  return b;
}

describe('HasherPool', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let pool: HasherPool | undefined;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
  });
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
    await cleanup();
  });

  it('hashes files of every size around the read buffer right, each to its own path', async () => {
    pool = new HasherPool({ threads: 2, batchSize: 4 });
    const MiB = 1024 * 1024;
    const sizes = [0, 1, 4095, MiB - 1, MiB, MiB + 1, 3 * MiB + 12345];
    const files = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const content = bytes(sizes[i % sizes.length] as number, i);
        const p = path.join(dir, `f${i}.bin`);
        await writeFile(p, content);
        return { p, content };
      }),
    );
    const results = await Promise.all(files.map((f) => pool!.hash(f.p)));
    results.forEach((r, i) => {
      const f = files[i]!;
      expect(r).toEqual({
        status: 'hashed',
        sha256: sha256(f.content),
        stat: expect.objectContaining({ size: f.content.length }),
      });
    });
  });

  it('reports gone, not-a-file, and refuses work after close', async () => {
    pool = new HasherPool({ threads: 1 });
    await mkdir(path.join(dir, 'folder'));
    expect(await pool.hash(path.join(dir, 'missing'))).toEqual({ status: 'gone' });
    expect(await pool.hash(path.join(dir, 'folder'))).toEqual({ status: 'not-a-file' });
    const queued = pool.hash(path.join(dir, 'missing'));
    const closing = pool.close();
    await expect(queued).rejects.toMatchObject({ code: 'HASHER_CLOSED' });
    await closing;
    await expect(pool.hash(path.join(dir, 'x'))).rejects.toMatchObject({ code: 'HASHER_CLOSED' });
  });

  it('judges the bytes it hashed for the area asked, the way classifyFile does', async () => {
    pool = new HasherPool({ threads: 1, batchSize: 3 });
    const png = makePng({ seed: 3 });
    const cases: Array<[string, Buffer, 'library-upload' | 'logo']> = [
      ['a.png', png, 'library-upload'],
      ['gif.png', makeGif(), 'library-upload'],
      ['cut.png', png.subarray(0, png.length - 20), 'library-upload'],
      ['empty.png', Buffer.alloc(0), 'library-upload'],
      ['big.png', makePngOfSize(10_000_001), 'library-upload'],
      ['logo.svg', makeSvg(), 'logo'],
      ['loose.svg', makeSvg(), 'library-upload'],
    ];
    for (const [name, content] of cases) await writeFile(path.join(dir, name), content);
    const results = await Promise.all(
      cases.map(([name, , area]) => pool!.hash(path.join(dir, name), area)),
    );
    for (const [i, [name, content, area]] of cases.entries()) {
      const expected = await classifyFile(path.join(dir, name), area);
      const { stat: _, ...verdict } = expected as Extract<typeof expected, { stat?: unknown }>;
      expect(results[i], name).toMatchObject({
        status: 'hashed',
        sha256: sha256(content),
        verdict,
      });
      expect(results[i], name).not.toHaveProperty('bytes');
    }
    expect(results.map((r) => (r.status === 'hashed' ? r.verdict?.status : r.status))).toEqual([
      'accepted',
      'skipped',
      'skipped',
      'skipped',
      'skipped',
      'accepted',
      'skipped',
    ]);
    // Without an area: the hash only.
    expect(await pool.hash(path.join(dir, 'a.png'))).not.toHaveProperty('verdict');
  });

  it('judges each file by its own bytes, never by what the thread read before it', async () => {
    // A thread reads every file it judges into one reused buffer (whole-file-buffer.ts): a
    // file cut short, after the whole one, must not borrow the whole one's tail.
    pool = new HasherPool({ threads: 1, batchSize: 2 });
    const whole = makePngOfSize(1_500_000);
    const cases: Array<[string, Buffer]> = [
      ['whole.png', whole],
      ['cut.png', whole.subarray(0, 1_400_000)],
      ['small.png', makePng({ seed: 8 })],
      ['cut-small.png', whole.subarray(0, 300_000)],
      ['whole-again.png', whole],
    ];
    for (const [name, content] of cases) await writeFile(path.join(dir, name), content);
    // Over 1 MiB: the thread's; once it has answered, every file is.
    const first = await pool.hash(path.join(dir, 'whole.png'), 'library-upload');
    const results = [
      first,
      ...(await Promise.all(
        cases.slice(1).map(([name]) => pool!.hash(path.join(dir, name), 'library-upload')),
      )),
    ];
    expect(pool.hashedInline).toBe(0);
    expect(
      results.map((r) => (r.status === 'hashed' ? [r.sha256, r.verdict?.status] : r.status)),
    ).toEqual(
      cases.map(([name, content]) => [
        sha256(content),
        name.startsWith('cut') ? 'skipped' : 'accepted',
      ]),
    );
    expect(results[1]).toMatchObject({ verdict: { code: 'TRUNCATED' } });
  });

  it('hashes the first small files itself while its thread starts, the same way', async () => {
    pool = new HasherPool({ threads: 1 });
    const png = makePng({ seed: 5 });
    const big = bytes(2 * 1024 * 1024, 9); // over 1 MiB: always a thread's
    const names = Array.from({ length: 12 }, (_, i) => `s${i}.png`);
    for (const name of names) await writeFile(path.join(dir, name), png);
    await writeFile(path.join(dir, 'big.bin'), big);
    const bigHash = pool.hash(path.join(dir, 'big.bin'));
    const small = names.map((name) => pool!.hash(path.join(dir, name), 'library-upload'));
    // 8 at most, before any thread answered; the rest, like the big one, went to the thread.
    expect(pool.hashedInline).toBe(8);
    expect(pool.runningThreads).toBe(1);
    const expected = {
      status: 'hashed',
      sha256: sha256(png),
      stat: expect.objectContaining({ size: png.length }),
      verdict: { status: 'accepted', kind: 'png', mime: 'image/png' },
    };
    for (const result of await Promise.all(small)) expect(result).toEqual(expected);
    expect(await bigHash).toMatchObject({ status: 'hashed', sha256: sha256(big) });
    // The thread has answered: every file goes to it now.
    expect(await pool.hash(path.join(dir, names[0]!), 'library-upload')).toEqual(expected);
    expect(pool.hashedInline).toBe(8);
  });

  it('hashes a file itself again once its idle thread has stopped', async () => {
    pool = new HasherPool({ threads: 1, idleThreadMs: 30 });
    const png = makePng({ seed: 6 });
    const file = path.join(dir, 'again.png');
    await writeFile(file, png);
    const many = Array.from({ length: 10 }, () => pool!.hash(file));
    await Promise.all(many); // 8 here, 2 by the thread, which then answered
    expect(pool.hashedInline).toBe(8);
    await expect.poll(() => pool!.runningThreads, { timeout: 5000 }).toBe(0);
    expect(await pool.hash(file)).toMatchObject({ status: 'hashed', sha256: sha256(png) });
    expect(pool.hashedInline).toBe(9);
  });

  it('rejects a bad thread count with a clear error', () => {
    expect(() => new HasherPool({ threads: 0 })).toThrow(/positive integer/);
  });
});

describe('sha256FileSync', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
  });
  afterEach(() => cleanup());

  it('returns "changed", never a stale hash, for a file written to while it is hashed', async () => {
    const file = path.join(dir, 'growing.bin');
    const content = bytes(300_000, 1);
    await writeFile(file, content);
    const buffer = Buffer.alloc(64 * 1024);
    let writes = 0;
    const r = sha256FileSync(file, buffer, () => {
      if (writes++ === 0) appendFileSync(file, 'more');
    });
    expect(r).toEqual({ status: 'changed', reason: 'The file was written to while it was hashed' });
    // Rewritten in place with the same size: the mtime/ctime give it away.
    const inPlace = sha256FileSync(file, buffer, (position) => {
      if (position === 64 * 1024) {
        const fd = openSync(file, 'r+');
        writeSync(fd, Buffer.from('XYZ'), 0, 3, 100_000);
        closeSync(fd);
        const later = new Date(Date.now() + 5000);
        utimesSync(file, later, later);
      }
    });
    expect(inPlace).toMatchObject({ status: 'changed' });
    // Once nobody writes, the same call gives the hash of what is on disk.
    expect(sha256FileSync(file, buffer)).toMatchObject({
      status: 'hashed',
      sha256: sha256(readFileSync(file)),
    });
  });

  it('returns "changed" for a file replaced (atomic save) while it is hashed', async () => {
    const file = path.join(dir, 'saved.bin');
    await writeFile(file, bytes(200_000, 2));
    const r = sha256FileSync(file, Buffer.alloc(64 * 1024), (position) => {
      if (position === 64 * 1024) {
        writeFileSync(`${file}.tmp`, bytes(200_000, 3));
        renameSync(`${file}.tmp`, file);
      }
    });
    // The old inode's link count (so its ctime) changes: caught by either stat comparison.
    expect(r).toMatchObject({ status: 'changed' });
  });
});

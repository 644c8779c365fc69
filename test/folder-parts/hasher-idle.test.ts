// A hasher thread is a V8 isolate of its own: one with nothing to hash stops, and the next
// file starts one again.
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { HasherPool } from '../../main/engine/folder-parts/file-hasher.ts';
import { makeTempDir } from './fixtures.ts';

let pool: HasherPool | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await pool?.close();
  await cleanup?.();
});

/** One file holding `content`, and a pool of one thread that stops after `idleThreadMs`. */
async function oneFileAndPool(
  content: string,
  idleThreadMs: number,
): Promise<{ file: string; hasher: HasherPool }> {
  const temp = await makeTempDir();
  cleanup = temp.cleanup;
  const file = path.join(temp.dir, 'a.bin');
  await writeFile(file, content);
  pool = new HasherPool({ threads: 1, idleThreadMs });
  return { file, hasher: pool };
}

test('an idle hasher thread stops, and the next file starts one again', async () => {
  const { file, hasher } = await oneFileAndPool('first', 20);

  expect(await hasher.hash(file)).toMatchObject({ status: 'hashed' });
  expect(hasher.runningThreads).toBe(1);
  await vi.waitFor(() => expect(pool?.runningThreads).toBe(0), { timeout: 10_000 });

  await writeFile(file, 'second');
  const again = await hasher.hash(file);
  expect(again).toMatchObject({
    status: 'hashed',
    sha256: createHash('sha256').update('second').digest('hex'),
  });
});

test('threads stopped as soon as they idle still hash every file, in waves', async () => {
  const temp = await makeTempDir();
  cleanup = temp.cleanup;
  pool = new HasherPool({ threads: 2, batchSize: 2, idleThreadMs: 0 });
  const files = await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const file = path.join(temp.dir, `f${i}.bin`);
      await writeFile(file, `content ${i}`);
      return file;
    }),
  );
  for (const wave of [files.slice(0, 20), files.slice(20)]) {
    const results = await Promise.all(wave.map((f) => pool!.hash(f)));
    expect(results.map((r) => r.status)).toEqual(wave.map(() => 'hashed'));
    await vi.waitFor(() => expect(pool?.runningThreads).toBe(0), { timeout: 10_000 });
  }
});

test('a thread warmed ahead of the first file hashes it, and stops when nothing comes', async () => {
  const { file, hasher } = await oneFileAndPool('warm', 300);

  hasher.warm();
  hasher.warm(); // one thread, however often it is asked
  expect(hasher.runningThreads).toBe(1);
  expect(await hasher.hash(file)).toMatchObject({
    status: 'hashed',
    sha256: createHash('sha256').update('warm').digest('hex'),
  });
  expect(hasher.runningThreads).toBe(1);
  await vi.waitFor(() => expect(pool?.runningThreads).toBe(0), { timeout: 10_000 });

  hasher.warm(); // warmed, and nothing comes
  expect(hasher.runningThreads).toBe(1);
  await vi.waitFor(() => expect(pool?.runningThreads).toBe(0), { timeout: 10_000 });
});

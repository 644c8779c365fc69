// `run`: the watcher and the pipeline on real files, with real waits (the stability window
// is a real-time rule). A slow write, an atomic save, a move, a deletion, a renamed brand
// folder and a drop of many files, each seen whole before anything is sent.
import { open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makePng, makePngOfSize } from '../folder-parts/fixtures.ts';
import { harness, sha256, waitFor, type Harness } from './harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(async () => {
  await h.close();
});

const WATCH = { windowMs: 600, goneDelayMs: 1200 };

/** A brand with its folder, and the engine running (watcher on). */
async function running() {
  const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
  const engine = h.open(WATCH);
  await engine.syncOnce();
  await engine.start();
  return { brand, engine, dir: path.join(h.root, 'Acme') };
}

const notices = (code: string) =>
  h.engine!.store.activity.list({ limit: 200 }).filter((a) => a.code === code);

describe('run: watching the brand folders', () => {
  test('a file written slowly over 3 s is sent once, complete', async () => {
    const { brand, dir } = await running();
    const release = h.folders().journal.hold(); // what a sync pass would do, to see each step
    const bytes = makePngOfSize(300_000);
    const file = await open(path.join(dir, 'slow.png'), 'w');
    const chunks = 30;
    const step = Math.ceil(bytes.length / chunks);
    for (let i = 0; i < chunks; i++) {
      await file.write(bytes.subarray(i * step, (i + 1) * step));
      await new Promise((r) => setTimeout(r, 100));
    }
    await file.close();
    await waitFor('the upload', () => h.file(brand.id, 'slow.png')?.state === 'uploaded');
    expect(h.received(brand.id)).toEqual(new Map([[sha256(bytes), 1]]));
    // Never judged on a partial file.
    const seen = h
      .folders()
      .journal.since(0)
      .filter((e) => e.path === 'slow.png');
    expect(seen.map((e) => e.type)).toEqual(['uploaded']);
    release();
  });

  test('an atomic save (temp file renamed over the original) sends the new bytes once; the temp file leaves no trace', async () => {
    const { brand, dir } = await running();
    const v1 = makePng({ seed: 1 });
    await writeFile(path.join(dir, 'art.png'), v1);
    await waitFor('v1', () => h.file(brand.id, 'art.png')?.state === 'uploaded');
    const v2 = makePng({ seed: 2 });
    await writeFile(path.join(dir, 'art.png.new'), v2);
    await rename(path.join(dir, 'art.png.new'), path.join(dir, 'art.png'));
    await waitFor(
      'v2',
      () =>
        h.file(brand.id, 'art.png')?.sha256 === sha256(v2) &&
        h.file(brand.id, 'art.png')?.state === 'uploaded',
    );
    await new Promise((r) => setTimeout(r, WATCH.goneDelayMs + 300));
    expect(h.received(brand.id)).toEqual(
      new Map([
        [sha256(v1), 1],
        [sha256(v2), 1],
      ]),
    );
    expect(h.file(brand.id, 'art.png.new')).toBeUndefined();
    expect(notices('FILE_DELETED_LOCALLY')).toEqual([]);
  });

  test('a move inside the brand sends nothing and is not a deletion; a deletion is told', async () => {
    const { brand, dir } = await running();
    const bytes = makePng({ seed: 3 });
    await writeFile(path.join(dir, 'a.png'), bytes);
    await waitFor('a.png', () => h.file(brand.id, 'a.png')?.state === 'uploaded');
    await rename(path.join(dir, 'a.png'), path.join(dir, 'b.png'));
    await waitFor(
      'the move',
      () =>
        h.file(brand.id, 'a.png') === undefined && h.file(brand.id, 'b.png')?.state === 'uploaded',
    );
    expect(notices('FILE_DELETED_LOCALLY')).toEqual([]);
    await rm(path.join(dir, 'b.png'));
    await waitFor('the deletion', () => h.file(brand.id, 'b.png')?.state === 'deleted');
    await waitFor('the notice', () => notices('FILE_DELETED_LOCALLY').length === 1);
    expect(notices('FILE_DELETED_LOCALLY')[0]?.message).toMatch(
      /Acme\/b\.png: Deleted on this computer only/,
    );
    expect(h.received(brand.id)).toEqual(new Map([[sha256(bytes), 1]]));
  });

  test('a brand folder renamed while running keeps its files: nothing sent again, nothing deleted', async () => {
    const { brand, dir } = await running();
    const bytes = makePng({ seed: 4 });
    await writeFile(path.join(dir, 'keep.png'), bytes);
    await waitFor('keep.png', () => h.file(brand.id, 'keep.png')?.state === 'uploaded');
    await rename(dir, path.join(h.root, 'Acme renamed'));
    await waitFor(
      'the new link',
      () => h.engine!.store.brands.get(brand.id)?.folderName === 'Acme renamed',
    );
    const later = makePng({ seed: 5 });
    await writeFile(path.join(h.root, 'Acme renamed', 'later.png'), later);
    await waitFor('later.png', () => h.file(brand.id, 'later.png')?.state === 'uploaded');
    await new Promise((r) => setTimeout(r, WATCH.goneDelayMs + 300));
    expect(h.file(brand.id, 'keep.png')?.state).toBe('uploaded');
    expect(notices('FILE_DELETED_LOCALLY')).toEqual([]);
    expect(h.received(brand.id)).toEqual(
      new Map([
        [sha256(bytes), 1],
        [sha256(later), 1],
      ]),
    );
  });

  test('300 files dropped at once while running are each sent once', async () => {
    const { brand, dir } = await running();
    const shas = new Set<string>();
    await Promise.all(
      Array.from({ length: 300 }, (_, i) => {
        const bytes = makePng({ seed: i % 256, width: 5 + Math.floor(i / 256) });
        shas.add(sha256(bytes));
        return h.put('Acme', `batch/${i % 3}/f${i}.png`, bytes);
      }),
    );
    await waitFor(
      'all uploads',
      () => h.engine!.store.files.countsByState(brand.id).uploaded === 300,
    );
    const received = h.received(brand.id);
    expect(new Set(received.keys())).toEqual(shas);
    expect([...received.values()].every((n) => n === 1)).toBe(true);
    void dir;
  }, 60_000);
});

test('run finds at start what changed while it was closed (before any brand listing)', async () => {
  const { brand, dir } = await running();
  const kept = makePng({ seed: 6 });
  await writeFile(path.join(dir, 'kept.png'), kept);
  await waitFor('kept.png', () => h.file(brand.id, 'kept.png')?.state === 'uploaded');
  await h.closeEngine();
  const added = makePng({ seed: 7 });
  await writeFile(path.join(dir, 'added.png'), added);
  await rm(path.join(dir, 'kept.png'));
  // The service is unreachable: the folders are still looked at, the upload waits.
  const engine = h.open(WATCH, {
    baseUrl: 'http://127.0.0.1:9/v1',
    retry: { limit: 0, baseDelayMs: 1, maxDelayMs: 1 },
  });
  await engine.start();
  await waitFor('the deletion', () => h.file(brand.id, 'kept.png')?.state === 'deleted');
  await waitFor(
    'the new file',
    () =>
      h.file(brand.id, 'added.png')?.state === 'waiting' &&
      h.file(brand.id, 'added.png')?.sha256 === sha256(added),
  );
  const uploads = engine.store.jobs.countsByState(['folder-upload']);
  expect(uploads.queued + uploads.running + uploads['retry-wait']).toBe(1);
  await h.closeEngine();
  // Back online: the queued upload goes out.
  const online = h.open(WATCH);
  await online.start();
  await waitFor('the upload', () => h.file(brand.id, 'added.png')?.state === 'uploaded');
  expect(h.received(brand.id)).toEqual(
    new Map([
      [sha256(kept), 1],
      [sha256(added), 1],
    ]),
  );
});

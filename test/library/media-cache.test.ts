import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LibraryMirror, MediaCache } from '../../main/engine/library/index.ts';
import { mediaCacheMaxBytesSetting } from '../../main/engine/store/index.ts';
import type { Store } from '../../main/engine/store/index.ts';
import { openTempStore } from '../store/open-temp-store.ts';
import type { TempStore } from '../store/open-temp-store.ts';
import { startSimHarness } from './sim-harness.ts';
import type { SimHarness } from './sim-harness.ts';

let h: SimHarness;
let t: TempStore;
let store: Store;
let brand: string;
let ids: string[];
const bytes = (n: number): Buffer => Buffer.alloc(1000, n);

beforeEach(async () => {
  h = await startSimHarness();
  t = openTempStore();
  store = t.store;
  brand = (await h.sim.control.seedBrand({ status: 'ready' })).id;
  ids = h.sim.control.seedLibrary(brand, {
    items: [
      { type: 'image', content: bytes(1), description: 'one' },
      { type: 'image', content: bytes(2), description: 'two' },
      { type: 'image', content: bytes(3), description: 'three' },
      { type: 'video', content: bytes(4), description: 'four' },
      { type: '3d-model', content: bytes(5), description: 'five' },
    ],
  }).ids;
  await new LibraryMirror({ store, source: h.client }).syncBrand(brand);
});
afterEach(async () => {
  t.cleanup();
  await h.close();
});

function cache(): MediaCache {
  return new MediaCache({
    store,
    dir: join(t.dir, 'media-cache'),
    download: (url, dest, options) => h.client.downloadToFile(url, dest, options),
  });
}

const downloads = (): number =>
  h.sim.control.log().filter((e) => e.path.startsWith('/files/media/')).length;

describe('media cache', () => {
  it('downloads an image once and serves it offline afterwards', async () => {
    const c = cache();
    const first = await c.get(ids[0]!);
    expect(readFileSync(first.path)).toEqual(bytes(1));
    expect(first).toMatchObject({ bytes: 1000, mimeType: 'image/png' });
    expect(downloads()).toBe(1);
    await h.close();
    expect(c.cached(ids[0]!)?.path).toBe(first.path);
    expect((await c.get(ids[0]!)).path).toBe(first.path);
    expect(c.cached(ids[1]!)).toBeNull();
  });

  it('evicts the least recently viewed images when over the size cap', async () => {
    store.settings.write(mediaCacheMaxBytesSetting, 2500);
    const c = cache();
    const a = await c.get(ids[0]!);
    t.clock.now += 1000;
    const b = await c.get(ids[1]!);
    t.clock.now += 1000;
    c.cached(ids[0]!); // viewed again: now b is the oldest
    t.clock.now += 1000;
    await c.get(ids[2]!);
    expect(existsSync(b.path)).toBe(false);
    expect(c.cached(ids[1]!)).toBeNull();
    expect(existsSync(a.path)).toBe(true);
    expect(c.usage()).toEqual({ bytes: 2000, capBytes: 2500 });
    store.settings.write(mediaCacheMaxBytesSetting, 1000);
    expect(await c.enforceCap()).toBe(1);
    expect(c.usage().bytes).toBe(1000);
    expect(c.cached(ids[2]!)).not.toBeNull();
  });

  it('keeps videos and audio too (the window plays them from here); refuses another type, with a reason', async () => {
    const c = cache();
    const video = await c.get(ids[3]!);
    expect(readFileSync(video.path)).toEqual(bytes(4));
    expect(c.cached(ids[3]!)?.path).toBe(video.path);
    await expect(c.get(ids[4]!)).rejects.toMatchObject({
      code: 'NOT_CACHEABLE',
      message: expect.stringContaining('3d-model'),
    });
    await expect(c.get('no-such-item')).rejects.toMatchObject({ code: 'ITEM_NOT_FOUND' });
  });

  it('cleans up what a crash left between file and row', async () => {
    const c = cache();
    const kept = await c.get(ids[0]!);
    const lost = await c.get(ids[1]!);
    mkdirSync(join(c.dir, 'zz'), { recursive: true });
    writeFileSync(join(c.dir, 'zz', 'orphan'), 'left by a crash');
    writeFileSync(`${kept.path}.part`, 'half a download');
    const { rmSync } = await import('node:fs');
    rmSync(lost.path);
    expect(await c.reconcile()).toEqual({ orphanFiles: 2, missingFiles: 1 });
    expect(existsSync(join(c.dir, 'zz', 'orphan'))).toBe(false);
    expect(store.mediaCache.all().map((e) => e.itemId)).toEqual([ids[0]]);
    expect(readFileSync(kept.path)).toEqual(bytes(1));
  });
});

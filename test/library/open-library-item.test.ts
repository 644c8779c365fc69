// Opening a Library item, the use case behind `library open` and the window's media: the
// simulator over real HTTP, a real SQLite store and the real media cache on disk.
import { readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibraryMirror, MediaCache, MirrorError } from '../../main/engine/library/index.ts';
import {
  openLibraryItem,
  OpenItemError,
  type OpenLibraryItemOptions,
} from '../../main/engine/library/open-library-item.ts';
import type { Store } from '../../main/engine/store/index.ts';
import { openTempStore, type TempStore } from '../store/open-temp-store.ts';
import { startSimHarness, type SimHarness } from './sim-harness.ts';

let h: SimHarness;
let t: TempStore;
let store: Store;
let brand: string;
let other: string;
let ids: string[];
let cache: MediaCache;
const png = Buffer.alloc(800, 7);

beforeEach(async () => {
  h = await startSimHarness();
  t = openTempStore();
  store = t.store;
  brand = (await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' })).id;
  other = (await h.sim.control.seedBrand({ name: 'Other', status: 'ready' })).id;
  ids = h.sim.control.seedLibrary(brand, {
    items: [
      { type: 'image', content: png, description: 'Spring poster' },
      { type: 'image', content: png, description: 'Banner' },
      { type: '3d-model', content: png, description: 'Chair' },
    ],
  }).ids;
  await new LibraryMirror({ store, source: h.client }).syncBrand(brand);
  cache = new MediaCache({
    store,
    dir: join(t.dir, 'media-cache'),
    download: (url, dest, options) => h.client.downloadToFile(url, dest, options),
  });
});
afterEach(async () => {
  t.cleanup();
  await h.close();
});

const downloads = (): number =>
  h.sim.control.log().filter((e) => e.path.startsWith('/files/media/')).length;

function open(itemId: string, more: Partial<OpenLibraryItemOptions> = {}) {
  return openLibraryItem({ store, cache, itemId, brandId: brand, canFetch: () => true, ...more });
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('the open should have been refused'),
    (error: unknown) => error,
  );
}

describe('open a Library item', () => {
  it('fetches into the media cache once, then opens it offline without asking to fetch', async () => {
    const first = await open(ids[0]!);
    expect(first).toMatchObject({ itemId: ids[0], brandId: brand, name: 'Spring poster.png' });
    expect(first.file.path.startsWith(join(t.dir, 'media-cache') + sep)).toBe(true);
    expect(readFileSync(first.file.path)).toEqual(png);
    expect(downloads()).toBe(1);

    await h.close();
    const again = await open(ids[0]!, {
      canFetch: () => expect.unreachable('a cached file needs no service'),
    });
    expect(again.file.path).toBe(first.file.path);
    expect(downloads()).toBe(1);
  });

  it('an item not in the mirror, or of another brand, is ITEM_NOT_FOUND', async () => {
    const unknown = await refusal(open('no-such-item'));
    expect(unknown).toBeInstanceOf(OpenItemError);
    expect(unknown).toMatchObject({ code: 'ITEM_NOT_FOUND' });
    expect((unknown as Error).message).toBe('The Library of this brand has no item no-such-item.');
    const elsewhere = await refusal(open(ids[0]!, { brandId: other }));
    expect(elsewhere).toMatchObject({ code: 'ITEM_NOT_FOUND' });
    expect(downloads()).toBe(0);
  });

  it('never fetched and signed out: NOT_CACHED, and nothing is asked of the service', async () => {
    const error = await refusal(open(ids[1]!, { canFetch: () => false }));
    expect(error).toMatchObject({ code: 'NOT_CACHED', reason: 'signed-out', retryable: false });
    expect((error as Error).message).toMatch(
      /^Library item .* was never fetched to this computer, and Brand Sync has no service or key/,
    );
    expect(downloads()).toBe(0);
  });

  it('never fetched and the service gone: NOT_CACHED as unreachable, which may be retried', async () => {
    await h.close();
    const error = await refusal(open(ids[1]!));
    expect(error).toMatchObject({ code: 'NOT_CACHED', reason: 'unreachable', retryable: true });
    expect((error as Error).message).toMatch(/the service cannot be reached to fetch it now/);
    expect(cache.cached(ids[1]!)).toBeNull();
  });

  it('a kind the cache does not keep is the cache’s own refusal', async () => {
    const error = await refusal(open(ids[2]!));
    expect(error).toBeInstanceOf(MirrorError);
    expect(error).toMatchObject({ code: 'NOT_CACHEABLE' });
  });
});

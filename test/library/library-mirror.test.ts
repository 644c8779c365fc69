import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../main/engine/api/errors.ts';
import {
  LibraryMirror,
  librarySyncJob,
  librarySyncJobKind,
  librarySyncKey,
} from '../../main/engine/library/index.ts';
import type { LibraryPageSource } from '../../main/engine/library/index.ts';
import { JobQueue } from '../../main/engine/queue/index.ts';
import { libraryFullPassIntervalSetting } from '../../main/engine/store/index.ts';
import type { Store } from '../../main/engine/store/index.ts';
import { openTempStore } from '../store/open-temp-store.ts';
import type { TempStore } from '../store/open-temp-store.ts';
import { libraryRequests, libraryRoute, startSimHarness } from './sim-harness.ts';
import type { SimHarness } from './sim-harness.ts';

let h: SimHarness;
let t: TempStore;
let store: Store;
beforeEach(async () => {
  h = await startSimHarness();
  t = openTempStore();
  store = t.store;
});
afterEach(async () => {
  t.cleanup();
  await h.close();
});

function mirror(source: LibraryPageSource = h.client): LibraryMirror {
  return new LibraryMirror({ store, source });
}

/** Every item id of the brand's Library as the service lists it (newest first). */
async function serviceIds(brandId: string, type?: 'image' | 'video' | 'audio'): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of h.client.libraryPages(brandId, {
    limit: 100,
    ...(type ? { type } : {}),
  })) {
    ids.push(...page.items.map((i) => i.id));
  }
  return ids;
}

function localIds(brandId: string, query: Parameters<Store['library']['list']>[1] = {}): string[] {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = store.library.list(brandId, { limit: 500, ...query, cursor });
    ids.push(...page.items.map((i) => i.id));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return ids;
}

async function readyBrand(count: number): Promise<string> {
  const { id } = await h.sim.control.seedBrand({ status: 'ready' });
  if (count > 0) h.sim.control.seedLibrary(id, { bulk: { count } });
  return id;
}

describe('first sync', () => {
  it('pages through the whole Library and mirrors it in the service order, fields included', async () => {
    const brand = await readyBrand(250);
    const result = await mirror().syncBrand(brand);
    expect(result).toMatchObject({
      mode: 'full',
      fullPass: true,
      requests: 3,
      itemsRead: 250,
      inserted: 250,
    });
    expect(libraryRequests(h.sim, brand)).toBe(3);
    expect(localIds(brand)).toEqual(await serviceIds(brand));
    const [first] = (await h.client.listLibraryPage(brand, { limit: 1 })).items;
    expect(store.library.get(first!.id)).toMatchObject({
      brandId: brand,
      type: first!.type,
      source: first!.source,
      url: first!.url,
      fileSize: first!.fileSize,
      description: first!.description,
      addedToLibraryAt: first!.addedToLibraryAt,
      raw: first,
    });
    const state = store.freshness().libraries.find((l) => l.brandId === brand);
    expect(state).toMatchObject({
      lastRefreshAt: t.clock.now,
      lastFullPassAt: t.clock.now,
      lastError: null,
    });
  });

  it('keeps unknown media types and sources as they are', async () => {
    const { id: brand } = await h.sim.control.seedBrand({ status: 'ready' });
    h.sim.control.seedLibrary(brand, {
      bulk: { count: 3, types: ['hologram'], sources: ['dreamed'] },
    });
    await mirror().syncBrand(brand);
    expect(store.library.typeCounts(brand)).toEqual([{ type: 'hologram', count: 3 }]);
    expect(store.library.list(brand).items.map((i) => i.source)).toEqual([
      'dreamed',
      'dreamed',
      'dreamed',
    ]);
  });

  it('answers offline queries like the service would: by type, newest first, paged', async () => {
    const brand = await readyBrand(230);
    await mirror().syncBrand(brand);
    const expected = {
      image: await serviceIds(brand, 'image'),
      video: await serviceIds(brand, 'video'),
      audio: await serviceIds(brand, 'audio'),
    };
    await h.close(); // offline from here on
    for (const type of ['image', 'video', 'audio'] as const) {
      expect(expected[type].length).toBeGreaterThan(0);
      expect(localIds(brand, { type })).toEqual(expected[type]);
      expect(store.library.count(brand, { type })).toBe(expected[type].length);
    }
    const words = localIds(brand, { search: 'teaser cut' });
    expect(words.length).toBeGreaterThan(0);
    expect(words.length).toBeLessThan(expected.video.length + 1);
    expect(words.every((id) => store.library.get(id)?.type === 'video')).toBe(true);
  });
});

describe('refresh', () => {
  it('costs one request per brand when the Library did not change', async () => {
    const brands = [await readyBrand(250), await readyBrand(40), await readyBrand(0)];
    for (const brand of brands) await mirror().syncBrand(brand);
    h.sim.control.clearLog();
    for (const brand of brands) {
      const result = await mirror().syncBrand(brand);
      expect(result).toMatchObject({ mode: 'refresh', requests: 1, inserted: 0 });
    }
    expect(h.sim.control.log({ route: libraryRoute })).toHaveLength(3);
  });

  it('reads new items from the newest and stops at the first page of known ones', async () => {
    const brand = await readyBrand(300);
    await mirror().syncBrand(brand);
    h.sim.control.advance(3_600_000); // added later than the first ones
    h.sim.control.seedLibrary(brand, { bulk: { count: 150 } });
    const result = await mirror().syncBrand(brand);
    // Page 1: 100 new; page 2: 50 new + 50 known; page 3: only known.
    expect(result).toMatchObject({ mode: 'refresh', requests: 3, inserted: 150, fullPass: false });
    expect(localIds(brand)).toEqual(await serviceIds(brand));
  });

  it('asks for the next page while it writes one of new items, and only then', async () => {
    const brand = await readyBrand(300);
    await mirror().syncBrand(brand);
    h.sim.control.advance(3_600_000);
    h.sim.control.seedLibrary(brand, { bulk: { count: 250 } });
    // How many items the mirror held when each page was asked for.
    const heldAtRequest: number[] = [];
    const watched: LibraryPageSource = {
      listLibraryPage: (id, query, options) => {
        heldAtRequest.push(store.library.count(brand));
        return h.client.listLibraryPage(id, query, options);
      },
    };
    const result = await mirror(watched).syncBrand(brand);
    // Pages 1 and 2 are all new: each next page is asked for before the page is written.
    // Page 3 ends on known items: page 4 only once it is written (it may have been the last).
    expect(heldAtRequest).toEqual([300, 300, 400, 550]);
    expect(result).toMatchObject({ mode: 'refresh', requests: 4, inserted: 250 });
    expect(localIds(brand)).toEqual(await serviceIds(brand));
  });

  it('after a sync died half-way, the next refresh still finds every new item', async () => {
    const brand = await readyBrand(300);
    await mirror().syncBrand(brand);
    h.sim.control.advance(3_600_000);
    h.sim.control.seedLibrary(brand, { bulk: { count: 250 } });
    let calls = 0;
    const flaky: LibraryPageSource = {
      listLibraryPage: async (id, query, options) => {
        if (++calls === 2)
          h.sim.control.failNext(libraryRoute, { status: 500, code: 'INTERNAL_ERROR' });
        return h.client.listLibraryPage(id, query, options);
      },
    };
    await expect(mirror(flaky).syncBrand(brand)).rejects.toBeInstanceOf(ApiError);
    expect(store.library.count(brand)).toBe(400); // page 1 of the new items arrived
    expect(store.freshness().libraries[0]?.lastError).toMatchObject({ code: 'INTERNAL_ERROR' });
    // Page 1 is all "known" now, but its items came from a sync that did not complete.
    const result = await mirror().syncBrand(brand);
    expect(result.requests).toBeGreaterThan(1);
    expect(store.library.count(brand)).toBe(550);
    expect(localIds(brand)).toEqual(await serviceIds(brand));
    expect(store.freshness().libraries[0]?.lastError).toBeNull();
  });

  it('runs a periodic full pass that marks items that left the Library', async () => {
    const brand = await readyBrand(120);
    await mirror().syncBrand(brand);
    // The oldest item: only a pass that reads to the end of the list can miss it.
    const gone = localIds(brand).at(-1)!;
    h.sim.control.unlistLibraryItem(brand, gone);
    const refresh = await mirror().syncBrand(brand);
    expect(refresh).toMatchObject({ mode: 'refresh', requests: 1, removed: 0 });
    expect(store.library.get(gone)?.removed).toBe(false);
    t.clock.now += store.settings.read(libraryFullPassIntervalSetting);
    const full = await mirror().syncBrand(brand);
    expect(full).toMatchObject({
      mode: 'full',
      fullPass: true,
      requests: 2,
      removed: 1,
      inserted: 0,
      // Named, so that a shown Library takes it out in place.
      removedIds: [gone],
    });
    expect(store.library.get(gone)).toMatchObject({ removed: true, removedAt: t.clock.now });
    expect(localIds(brand)).toEqual(await serviceIds(brand));
    expect(localIds(brand, { removed: true })).toEqual([gone]);
  });

  it('records the reason when the brand is gone on the service', async () => {
    const brand = await readyBrand(5);
    await mirror().syncBrand(brand);
    await h.client.deleteBrand(brand);
    await expect(mirror().syncBrand(brand)).rejects.toMatchObject({ code: 'BRAND_NOT_FOUND' });
    expect(store.library.count(brand)).toBe(5); // what was mirrored stays browsable
    expect(store.freshness().libraries[0]).toMatchObject({
      lastError: { code: 'BRAND_NOT_FOUND' },
    });
  });
});

describe('as a queue job', () => {
  it('mirrors each brand once per request, deduplicated per brand', async () => {
    const brands = [await readyBrand(130), await readyBrand(20)];
    const queue = new JobQueue({ store });
    const kind = queue.register(librarySyncJobKind, librarySyncJob(mirror()));
    for (const brand of [...brands, ...brands])
      kind.enqueue({ brandId: brand, mode: 'auto' }, librarySyncKey(brand));
    expect(store.jobs.countsByState()).toMatchObject({ queued: 2 });
    queue.start();
    await queue.whenSettled();
    await queue.stop();
    expect(store.jobs.list({ kind: librarySyncJobKind }).map((j) => [j.state, j.result])).toEqual([
      ['done', expect.objectContaining({ brandId: brands[1], inserted: 20 })],
      ['done', expect.objectContaining({ brandId: brands[0], inserted: 130 })],
    ]);
    expect(store.library.count(brands[0]!)).toBe(130);
  });
});

// unlistLibraryItem: an item taken out of a brand's Library is no longer listed (paging,
// type filter and hasMore stay right around it) but remains a media file, inLibrary false;
// the operation is also served over HTTP under /_control/.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Json, Sim } from './helpers.ts';
import { start } from './helpers.ts';

let s: Sim;
beforeEach(async () => {
  s = await start();
});
afterEach(() => s.close());

/** Every item ID of the brand's Library, newest first, walking the cursors. */
async function listedIds(brandId: string, query: Record<string, string | number> = {}) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: Json = await s.get(`/brands/${brandId}/library`, {
      query: { limit: 10, ...query, ...(cursor ? { cursor } : {}) },
    });
    expect(res.status).toBe(200);
    const page = res.body.data;
    ids.push(...page.items.map((m: { id: string }) => m.id));
    expect(page.hasMore).toBe(page.nextCursor !== null);
    if (page.hasMore) expect(page.items).toHaveLength(10);
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== null);
  return { ids, pages };
}

describe('unlistLibraryItem', () => {
  test('seeded and bulk items leave the listing; the rest keeps its order and paging', async () => {
    const b = await s.readyBrand();
    s.control.seedLibrary(b.id, { bulk: { count: 25 } });
    const { ids: seeded } = s.control.seedLibrary(b.id, {
      items: [{ type: 'image' }, { type: 'video', durationMs: 4000 }, { type: 'image' }],
    });
    const before = (await listedIds(b.id)).ids;
    expect(before).toHaveLength(28);
    const video = seeded[1] as string;
    const bulkItem = before[10] as string;
    s.control.unlistLibraryItem(b.id, video);
    s.control.unlistLibraryItem(b.id, bulkItem);

    const after = await listedIds(b.id);
    expect(after.ids).toEqual(before.filter((id) => id !== video && id !== bulkItem));
    expect(after.pages).toBe(3); // 26 items: 10 + 10 + 6, hasMore false on the last
    const videos = await listedIds(b.id, { type: 'video' });
    expect(videos.ids).not.toContain(video);

    // Still a media file, now outside the Library.
    const res: Json = await s.get(`/videos/${video}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: video, inLibrary: false });
  });

  test('the last item of a page boundary: hasMore is false when only unlisted items follow', async () => {
    const b = await s.readyBrand();
    const { ids } = s.control.seedLibrary(b.id, {
      items: Array.from({ length: 11 }, () => ({ type: 'image' })),
    });
    s.control.unlistLibraryItem(b.id, ids[0] as string); // the oldest: the 11th listed
    const page: Json = await s.get(`/brands/${b.id}/library`, { query: { limit: 10 } });
    expect(page.body.data).toMatchObject({ hasMore: false, nextCursor: null });
    expect(page.body.data.items).toHaveLength(10);
  });

  test('an item not listed in that Library is an error; over HTTP too', async () => {
    const a = await s.readyBrand('A');
    const other = await s.readyBrand('B');
    const { ids } = s.control.seedLibrary(a.id, { items: [{ type: 'image' }] });
    const id = ids[0] as string;
    expect(() => s.control.unlistLibraryItem(other.id, id)).toThrow(/no item/);
    expect(() => s.control.unlistLibraryItem(a.id, '00000000-0000-4000-8000-000000000000')).toThrow(
      /no item/,
    );

    const control = `${s.sim.origin}/_control/unlistLibraryItem`;
    const post = (body: unknown) =>
      fetch(control, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const ok = await post([a.id, id]);
    expect(ok.status).toBe(200);
    expect((await listedIds(a.id)).ids).toEqual([]);
    const again = await post([a.id, id]);
    expect(again.status).toBe(400);
    expect(((await again.json()) as Json).error.code).toBe('CONTROL_ERROR');
  });
});

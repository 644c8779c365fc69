import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LibraryItemInput, Store } from '../../main/engine/store/index.ts';
import { openTempStore } from './open-temp-store.ts';
import type { TempStore } from './open-temp-store.ts';

let t: TempStore;
let store: Store;
beforeEach(() => {
  t = openTempStore();
  store = t.store;
});
afterEach(() => t.cleanup());

function item(n: number, over: Partial<LibraryItemInput> = {}): LibraryItemInput {
  const added = new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
  const base = {
    id: `item-${String(n).padStart(5, '0')}`,
    type: n % 3 === 0 ? 'video' : 'image',
    source: 'uploaded',
    workspaceId: null,
    mimeType: 'image/png',
    url: `https://cdn.example/${n}`,
    fileSize: n,
    durationMs: null,
    width: 10,
    height: 10,
    description: n % 2 === 0 ? `red logo number ${n}` : `blue poster ${n}`,
    inLibrary: true,
    addedToLibraryAt: added,
    generationId: null,
    createdAt: added,
  };
  const merged = { ...base, ...over };
  return { ...merged, raw: { ...merged, raw: undefined } };
}

function all(brandId: string, query: Parameters<Store['library']['list']>[1] = {}): string[] {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = store.library.list(brandId, { ...query, cursor });
    ids.push(...page.items.map((i) => i.id));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return ids;
}

describe('library items', () => {
  it('pages newest first with cursors, through every item exactly once', () => {
    const items = Array.from({ length: 130 }, (_, i) => item(i));
    store.library.upsertPage('b1', items.slice(0, 100), { seq: 1, trustedSeq: 0 });
    store.library.upsertPage('b1', items.slice(100), { seq: 1, trustedSeq: 0 });
    const ids = all('b1', { limit: 7 });
    expect(ids).toEqual(items.map((i) => i.id).reverse());
    const page = store.library.list('b1', { limit: 2 });
    expect(page.items.map((i) => i.id)).toEqual(['item-00129', 'item-00128']);
    expect(page.items[0]).toMatchObject({
      brandId: 'b1',
      type: 'video',
      fileSize: 129,
      removed: false,
      inLibrary: true,
    });
  });

  it('filters by type, including types it does not know, and counts them', () => {
    store.library.upsertPage(
      'b1',
      [item(1), item(2), item(3), item(4, { type: 'hologram', source: 'dreamed' })],
      { seq: 1, trustedSeq: 0 },
    );
    expect(all('b1', { type: 'video' })).toEqual(['item-00003']);
    expect(all('b1', { type: 'hologram' })).toEqual(['item-00004']);
    expect(store.library.get('item-00004')).toMatchObject({ type: 'hologram', source: 'dreamed' });
    expect(store.library.count('b1')).toBe(4);
    expect(store.library.count('b1', { type: 'image' })).toBe(2);
    expect(store.library.typeCounts('b1')).toEqual([
      { type: 'image', count: 2 },
      { type: 'hologram', count: 1 },
      { type: 'video', count: 1 },
    ]);
  });

  it('finds words and word beginnings in descriptions, newest first, and follows description changes', () => {
    store.library.upsertPage('b1', [item(1), item(2), item(4), item(5, { description: null })], {
      seq: 1,
      trustedSeq: 0,
    });
    expect(all('b1', { search: 'red' })).toEqual(['item-00004', 'item-00002']);
    expect(all('b1', { search: 'LOG numb' })).toEqual(['item-00004', 'item-00002']);
    expect(all('b1', { search: 'poster', limit: 1 })).toEqual(['item-00001']);
    expect(all('b1', { search: '  !! ' })).toHaveLength(4);
    store.library.upsertPage('b1', [item(2, { description: 'green banner' })], {
      seq: 2,
      trustedSeq: 1,
    });
    expect(all('b1', { search: 'red' })).toEqual(['item-00004']);
    expect(all('b1', { search: 'banner' })).toEqual(['item-00002']);
    expect(all('b1', { search: 'red', type: 'video' })).toEqual([]);
  });

  it('keeps the raw record with unknown fields', () => {
    const odd = item(1);
    store.library.upsertPage(
      'b1',
      [{ ...odd, raw: { ...(odd.raw as object), sparkle: { level: 9 } } }],
      {
        seq: 1,
        trustedSeq: 0,
      },
    );
    expect(store.library.get('item-00001')?.raw).toMatchObject({ sparkle: { level: 9 } });
  });

  it('counts trusted known items and rewrites only what changed', () => {
    const first = store.library.upsertPage('b1', [item(1), item(2)], { seq: 1, trustedSeq: 0 });
    expect(first).toEqual({
      inserted: 2,
      updated: 0,
      unchanged: 0,
      trustedKnown: 0,
      added: ['item-00001', 'item-00002'],
    });
    // Seen by sync 1, which has not completed: not yet trusted by sync 2.
    const second = store.library.upsertPage(
      'b1',
      [item(1), item(2, { description: 'new' }), item(3)],
      {
        seq: 2,
        trustedSeq: 0,
      },
    );
    expect(second).toEqual({
      inserted: 1,
      updated: 1,
      unchanged: 1,
      trustedKnown: 0,
      added: ['item-00003'],
    });
    const third = store.library.upsertPage('b1', [item(1), item(3)], { seq: 3, trustedSeq: 2 });
    expect(third).toEqual({ inserted: 0, updated: 0, unchanged: 2, trustedKnown: 2, added: [] });
  });

  it('marks items a full pass did not see as removed, and revives them when they return', () => {
    store.library.upsertPage('b1', [item(1), item(2), item(3)], { seq: 1, trustedSeq: 0 });
    store.library.upsertPage('b1', [item(1), item(3)], { seq: 2, trustedSeq: 1 });
    expect(store.library.markUnseenRemoved('b1', 2)).toEqual(['item-00002']);
    expect(all('b1')).toEqual(['item-00003', 'item-00001']);
    expect(all('b1', { removed: true })).toEqual(['item-00002']);
    expect(store.library.get('item-00002')).toMatchObject({
      removed: true,
      removedAt: t.clock.now,
    });
    const back = store.library.upsertPage('b1', [item(2), item(3)], { seq: 3, trustedSeq: 2 });
    expect(back.trustedKnown).toBe(1);
    expect(back.added).toEqual(['item-00002']); // back after its removal; item 3 never left
    expect(store.library.get('item-00002')?.removed).toBe(false);
  });

  it('keeps brands apart', () => {
    store.library.upsertPage('b1', [item(1)], { seq: 1, trustedSeq: 0 });
    store.library.upsertPage('b2', [item(2)], { seq: 1, trustedSeq: 0 });
    expect(all('b1')).toEqual(['item-00001']);
    expect(all('b2')).toEqual(['item-00002']);
  });

  it('answers every list form from an index, never a table scan', () => {
    store.library.upsertPage('b1', [item(1), item(2)], { seq: 1, trustedSeq: 0 });
    const cursor = store.library.list('b1', { limit: 1 }).nextCursor;
    expect(cursor).not.toBeNull();
    const forms = [
      {},
      { type: 'image' },
      { cursor },
      { type: 'video', cursor },
      { removed: true, cursor },
    ];
    for (const form of forms) {
      const plan = store.library.listPlan('b1', form).join(' | ');
      expect(plan, JSON.stringify(form)).toMatch(
        /SEARCH li USING (COVERING )?INDEX library_by_(brand|type)/,
      );
      expect(plan, JSON.stringify(form)).not.toMatch(/SCAN|TEMP B-TREE/);
    }
    expect(store.library.listPlan('b1', { search: 'red' }).join(' | ')).toMatch(
      /VIRTUAL TABLE INDEX/,
    );
  });

  it('refuses cursors it did not hand out and bad page sizes', () => {
    expect(() => store.library.list('b1', { cursor: 'garbage' })).toThrowError(
      expect.objectContaining({ code: 'INVALID_CURSOR' }),
    );
    expect(() =>
      store.library.list('b1', { cursor: Buffer.from('[1]').toString('base64url') }),
    ).toThrowError(expect.objectContaining({ code: 'INVALID_CURSOR' }));
    expect(() => store.library.list('b1', { limit: 501 })).toThrow(/1 to 500/);
  });
});

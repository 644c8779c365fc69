// LibraryState: one brand's Library a page at a time, kept live by `library` events (new items
// merged in place, removed ones taken out, anything else read again), a filter starting over.
import { afterEach, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import type { Input, LibraryItemDoc, Output, Result } from '../../contract/index.ts';
import { Bridge } from '../../renderer/src/lib/bridge/bridge.ts';
import { EventHub } from '../../renderer/src/lib/state/event-hub.svelte.ts';
import { LibraryState } from '../../renderer/src/lib/state/library.svelte.ts';
import { MemoryTransport, refused } from './memory-transport.ts';
import { reader, type Reader } from './reader.svelte.ts';

function item(n: number, brandId = 'b1', type = 'image'): LibraryItemDoc {
  const at = new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
  return {
    id: `${brandId}-${n}`,
    brandId,
    type,
    source: 'upload',
    mimeType: type === 'image' ? 'image/png' : 'video/mp4',
    fileSize: 1000,
    durationMs: null,
    width: 10,
    height: 10,
    description: `picture ${n}`,
    addedAt: at,
    createdAt: at,
    cached: false,
    file: { area: 'media', brandId, path: `${brandId}-${n}` },
    name: `picture-${n}.png`,
  };
}

/**
 * A Library in memory, answering the `library` channel as the engine does: most recent first,
 * a cursor that is the offset, the type and search filters, the counts by type.
 */
class MemoryLibrary {
  items: LibraryItemDoc[] = [];
  failing = false;
  answer(input: Input<'library'>): Result<Output<'library'>> {
    if (this.failing) return refused('INTERNAL_ERROR', 'the mirror could not be read');
    const mine = this.items.filter(
      (i) => input.brandId === undefined || i.brandId === input.brandId,
    );
    const matching = mine.filter(
      (i) =>
        (input.type === undefined || i.type === input.type) &&
        (input.search === undefined || (i.description ?? '').includes(input.search)),
    );
    const from = Number(input.cursor ?? 0);
    const limit = input.limit ?? 100;
    const page = matching.slice(from, from + limit);
    const types = [...new Set(mine.map((i) => i.type))].map((type) => ({
      type,
      count: mine.filter((i) => i.type === type).length,
    }));
    return {
      ok: true,
      data: {
        brandId: input.brandId ?? null,
        items: page,
        nextCursor: from + limit < matching.length ? String(from + limit) : null,
        total: input.search === undefined ? matching.length : null,
        types,
        lastRefreshAt: '2026-01-01T00:00:00.000Z',
      },
    };
  }
  /** Adds `count` newer items at the top; returns their IDs, as the engine's event names them. */
  add(count: number, brandId = 'b1'): string[] {
    const top = this.items.length;
    const added = Array.from({ length: count }, (_, i) => item(top + i + 1000, brandId)).reverse();
    this.items = [...added, ...this.items];
    return added.map((i) => i.id);
  }
}

function setup(count: number, brandId: string | null = 'b1') {
  const library = new MemoryLibrary();
  library.items = Array.from({ length: count }, (_, i) => item(count - i));
  const transport = new MemoryTransport().answer('library', (input) => library.answer(input));
  const bridge = new Bridge(transport);
  const hub = new EventHub(bridge);
  hub.start();
  const state = new LibraryState(bridge, hub, brandId);
  const reads = () => transport.callsOf('library') as Input<'library'>[];
  return { library, transport, state, reads };
}

let readers: Reader<unknown>[] = [];
/** Shows the Library as LibraryTab does: tracked inside an effect. */
function show(state: LibraryState): Reader<unknown> {
  const r = reader(() => {
    state.track();
    return state.items.length;
  });
  readers.push(r);
  return r;
}
afterEach(() => {
  for (const r of readers) r.stop();
  readers = [];
});

const loaded = (state: LibraryState) => vi.waitFor(() => expect(state.loading).toBe(false));

describe('LibraryState', () => {
  it('reads the first page when shown, then the next when asked, until the end', async () => {
    const { state, reads } = setup(1200);
    expect(reads()).toHaveLength(0);
    show(state);
    expect(state.loading).toBe(true);
    await vi.waitFor(() => expect(state.loaded).toBe(true));
    expect(state.items).toHaveLength(500);
    expect(state.items[0]?.id).toBe('b1-1200');
    expect(state.total).toBe(1200);
    expect(state.types).toEqual([{ type: 'image', count: 1200 }]);
    expect(state.hasMore).toBe(true);

    await state.more();
    await state.more();
    expect(state.items).toHaveLength(1200);
    expect(state.hasMore).toBe(false);
    expect(new Set(state.items.map((i) => i.id)).size).toBe(1200);
    await state.more();
    expect(reads()).toHaveLength(3);
  });

  it('merges items an event names into what is loaded, reading only a small page', async () => {
    const { library, transport, state, reads } = setup(1200);
    show(state);
    await vi.waitFor(() => expect(state.loaded).toBe(true));
    await state.more();
    const before = reads().length;

    const added = library.add(3);
    transport.emit({ type: 'library', brandId: 'b1', added, removed: [], changed: 0 });
    await vi.waitFor(() => expect(state.items).toHaveLength(1003));
    expect(state.items.slice(0, 3).map((i) => i.id)).toEqual(added);
    expect(state.total).toBe(1203);
    // One read of the top (the new ones and a margin), not the 1000 loaded again.
    expect(reads().slice(before)).toEqual([
      expect.objectContaining({ brandId: 'b1', limit: 23, cursor: null }),
    ]);
  });

  it('takes out the items an event says left, and the selection with them', async () => {
    const { library, transport, state, reads } = setup(10);
    show(state);
    await vi.waitFor(() => expect(state.loaded).toBe(true));
    state.selectedId = 'b1-5';
    expect(state.selected?.id).toBe('b1-5');
    const before = reads().length;

    library.items = library.items.filter((i) => i.id !== 'b1-5' && i.id !== 'b1-6');
    transport.emit({ type: 'library', brandId: 'b1', added: [], removed: ['b1-5', 'b1-6'] });
    expect(state.items.map((i) => i.id)).not.toContain('b1-5');
    expect(state.items).toHaveLength(8);
    expect(state.selectedId).toBeNull();
    // Only the counts are read again, from a one-item page.
    await vi.waitFor(() => expect(state.total).toBe(8));
    expect(reads().slice(before)).toEqual([expect.objectContaining({ limit: 1 })]);
  });

  it('reads again what is loaded when an event cannot name what changed', async () => {
    const { library, transport, state, reads } = setup(30);
    show(state);
    await vi.waitFor(() => expect(state.loaded).toBe(true));
    library.items = library.items.map((i) => ({ ...i, description: `renamed ${i.id}` }));
    transport.emit({ type: 'library', brandId: 'b1', changed: 4 });
    await vi.waitFor(() => expect(state.items[0]?.description).toBe('renamed b1-30'));
    expect(reads().at(-1)).toEqual(expect.objectContaining({ cursor: null, limit: 500 }));
  });

  it("leaves another brand's events alone, but the Library of every brand hears them all", async () => {
    const one = setup(5);
    show(one.state);
    await vi.waitFor(() => expect(one.state.loaded).toBe(true));
    one.transport.emit({ type: 'library', brandId: 'b2', changed: 1 });
    expect(one.reads()).toHaveLength(1);

    const all = setup(5, null);
    show(all.state);
    await vi.waitFor(() => expect(all.state.loaded).toBe(true));
    expect(all.reads()[0]).not.toHaveProperty('brandId');
    all.transport.emit({ type: 'library', brandId: 'b2', changed: 1 });
    await vi.waitFor(() => expect(all.reads()).toHaveLength(2));
  });

  it('says a failed read as its error, loaded and no longer loading; a later read clears it', async () => {
    const { library, state } = setup(5);
    library.failing = true;
    show(state);
    await vi.waitFor(() => expect(state.loaded).toBe(true));
    expect(state.loading).toBe(false);
    expect(state.error?.code).toBe('INTERNAL_ERROR');
    expect(state.items).toEqual([]);

    library.failing = false;
    await state.reload();
    expect(state.error).toBeNull();
    expect(state.items).toHaveLength(5);
  });

  it('starts over with a filter, and an answer for the words before is dropped', async () => {
    const { library, transport, state } = setup(0);
    library.items = [
      item(1),
      item(2, 'b1', 'video'),
      item(3),
      { ...item(4), description: 'a cat' },
    ];
    // The first read is held until the search has been answered.
    let releaseFirst: (() => void) | null = null;
    let first = true;
    transport.answer('library', (input) => {
      const answer = library.answer(input);
      if (!first) return answer;
      first = false;
      return new Promise((resolve) => (releaseFirst = () => resolve(answer)));
    });
    show(state);
    state.setSearch('cat');
    await loaded(state);
    expect(state.items.map((i) => i.description)).toEqual(['a cat']);
    releaseFirst!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(state.items.map((i) => i.description)).toEqual(['a cat']);

    state.setSearch('');
    state.setType('video');
    await loaded(state);
    expect(state.items.map((i) => i.type)).toEqual(['video']);
  });

  it('stops following events when it is no longer shown', async () => {
    const { transport, state, reads } = setup(5);
    const view = show(state);
    await vi.waitFor(() => expect(state.loaded).toBe(true));
    view.stop();
    readers = [];
    transport.emit({ type: 'library', brandId: 'b1', changed: 1 });
    transport.emit({ type: 'resync' });
    expect(reads()).toHaveLength(1);
  });
});

// LiveQuery: a bridge query loaded when first read, asked again when an event says it is
// stale (a burst shares few requests), keeping its last answer through a failure, and let go
// when nothing reads it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BridgeError, Output, Result } from '../../contract/index.ts';
import { Bridge } from '../../renderer/src/lib/bridge/bridge.ts';
import { EventHub } from '../../renderer/src/lib/state/event-hub.svelte.ts';
import { LiveQuery } from '../../renderer/src/lib/state/live-query.svelte.ts';
import { MemoryTransport, refused } from './memory-transport.ts';
import { reader, type Reader } from './reader.svelte.ts';

type Credits = Output<'credits'>;

/** A `credits` channel whose answers the test releases one by one. */
function setup(options: { relevant?: boolean; debounceMs?: number } = {}) {
  const transport = new MemoryTransport();
  const pending: ((result: Result<Credits>) => void)[] = [];
  transport.answer('credits', () => new Promise((resolve) => pending.push(resolve)));
  const bridge = new Bridge(transport);
  const hub = new EventHub(bridge);
  hub.start();
  const query = new LiveQuery<Credits>({
    hub,
    types: ['credits', 'brand'],
    ...(options.relevant === undefined
      ? {}
      : { relevant: (e) => e.type !== 'brand' || e.brandId === 'mine' }),
    load: () => bridge.call('credits', {}),
    ...(options.debounceMs === undefined ? {} : { debounceMs: options.debounceMs }),
  });
  const release = async (result: Result<Credits>) => {
    await vi.waitFor(() => expect(pending.length).toBeGreaterThan(0));
    pending.shift()?.(result);
    // The answer is taken in a few promise steps: a macrotask later, they have all run.
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { transport, query, pending, release, loads: () => transport.callsOf('credits').length };
}

const credits = (balance: number): Credits =>
  ({
    credits: [{ workspaceId: null, name: null, balance, unlimited: false }],
  }) as unknown as Credits;
const balanceOf = (data: Credits | null) =>
  (data as { credits: { balance: number }[] } | null)?.credits[0]?.balance ?? null;

let readers: Reader<unknown>[] = [];
function read<T>(fn: () => T): Reader<T> {
  const r = reader(fn);
  readers.push(r as Reader<unknown>);
  return r;
}
afterEach(() => {
  for (const r of readers) r.stop();
  readers = [];
});

describe('LiveQuery', () => {
  it('loads nothing until read; read, it is loading, then ready with the answer', async () => {
    const { query, release, loads } = setup();
    expect(loads()).toBe(0);
    const view = read(() => ({ loading: query.loading, balance: balanceOf(query.data) }));
    expect(view.last).toEqual({ loading: true, balance: null });
    expect(loads()).toBe(1);

    await release({ ok: true, data: credits(40) });
    await vi.waitFor(() => expect(view.last).toEqual({ loading: false, balance: 40 }));
    expect(query.loadedAt).not.toBeNull();
  });

  it('asks again when an event of its types comes, and not for other types', async () => {
    const { transport, query, release, loads } = setup();
    const view = read(() => balanceOf(query.data));
    await release({ ok: true, data: credits(40) });
    await vi.waitFor(() => expect(view.last).toBe(40));

    transport.emit({ type: 'queue' });
    transport.emit({ type: 'settings' });
    expect(loads()).toBe(1);

    transport.emit({ type: 'credits' });
    expect(loads()).toBe(2);
    await release({ ok: true, data: credits(35) });
    await vi.waitFor(() => expect(view.last).toBe(35));
  });

  it('asks again only for the events that concern it', async () => {
    const { transport, query, release, loads } = setup({ relevant: true });
    read(() => query.data);
    await release({ ok: true, data: credits(1) });
    transport.emit({ type: 'brand', brandId: 'another' });
    expect(loads()).toBe(1);
    transport.emit({ type: 'brand', brandId: 'mine' });
    expect(loads()).toBe(2);
  });

  it('keeps its last answer when a refresh fails, with the error beside it, until one succeeds', async () => {
    const { query, release } = setup();
    const view = read(() => ({ balance: balanceOf(query.data), error: query.error?.code ?? null }));
    await release({ ok: true, data: credits(40) });
    await vi.waitFor(() => expect(view.last).toEqual({ balance: 40, error: null }));

    const refreshed = query.refresh();
    await release(refused('NETWORK_ERROR', 'offline') as { ok: false; error: BridgeError });
    await refreshed;
    expect(view.last).toEqual({ balance: 40, error: 'NETWORK_ERROR' });
    // A refresh is not a first load: the page keeps showing the answer it has.
    expect(query.loading).toBe(false);

    const again = query.refresh();
    await release({ ok: true, data: credits(41) });
    await again;
    expect(view.last).toEqual({ balance: 41, error: null });
  });

  it('sends one request at a time: a refresh asked during one runs once after it', async () => {
    const { query, release, loads, pending } = setup();
    read(() => query.data);
    expect(loads()).toBe(1);
    void query.refresh();
    void query.refresh();
    void query.refresh();
    expect(loads()).toBe(1);
    await release({ ok: true, data: credits(1) });
    await vi.waitFor(() => expect(loads()).toBe(2));
    await release({ ok: true, data: credits(2) });
    await vi.waitFor(() => expect(balanceOf(query.data)).toBe(2));
    expect(loads()).toBe(2);
    expect(pending).toEqual([]);
  });

  it('answers the first event of a burst at once and the rest with a few requests', async () => {
    const { transport, query, release, loads } = setup({ debounceMs: 40 });
    const view = read(() => balanceOf(query.data));
    await release({ ok: true, data: credits(0) });
    await vi.waitFor(() => expect(view.last).toBe(0));

    for (let i = 0; i < 50; i++) transport.emit({ type: 'credits' });
    expect(loads()).toBe(2);
    await release({ ok: true, data: credits(1) });
    // The events after the first wait for the quiet window, then share one request.
    await release({ ok: true, data: credits(2) });
    await vi.waitFor(() => expect(view.last).toBe(2));
    expect(loads()).toBe(3);
  });

  it('asks again when the stream comes back after a drop (resync)', async () => {
    const { transport, query, release, loads } = setup();
    read(() => query.data);
    await release({ ok: true, data: credits(1) });
    transport.connection(true);
    expect(loads()).toBe(1);
    transport.connection(false);
    transport.connection(true);
    expect(loads()).toBe(2);
  });

  it('stops listening when nothing reads it any more', async () => {
    const { transport, query, release, loads } = setup();
    const view = read(() => query.data);
    await release({ ok: true, data: credits(1) });
    view.stop();
    readers = [];
    transport.emit({ type: 'credits' });
    expect(loads()).toBe(1);

    // Read again, it loads again and listens again.
    read(() => query.data);
    expect(loads()).toBe(2);
    await release({ ok: true, data: credits(2) });
    transport.emit({ type: 'credits' });
    expect(loads()).toBe(3);
  });

  it('takes an answer a command returned at once, clearing the error', async () => {
    const { query, release } = setup();
    const view = read(() => ({ balance: balanceOf(query.data), error: query.error?.code ?? null }));
    await release(refused('TIMEOUT', 'slow') as { ok: false; error: BridgeError });
    await vi.waitFor(() => expect(view.last).toEqual({ balance: null, error: 'TIMEOUT' }));
    query.set(credits(7));
    expect(view.last).toEqual({ balance: 7, error: null });
  });
});

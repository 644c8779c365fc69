// EventHub: the window's one subscription to the engine's events, and who hears what.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NumberedEvent } from '../../contract/index.ts';
import { Bridge } from '../../renderer/src/lib/bridge/bridge.ts';
import { EventHub } from '../../renderer/src/lib/state/event-hub.svelte.ts';
import { MemoryTransport } from './memory-transport.ts';

function started() {
  const transport = new MemoryTransport();
  const hub = new EventHub(new Bridge(transport));
  hub.start();
  return { transport, hub };
}

afterEach(() => vi.restoreAllMocks());

describe('EventHub', () => {
  it('subscribes once, however often it is started, and lets go on stop', () => {
    const { transport, hub } = started();
    hub.start();
    expect(transport.subscribers).toBe(1);
    hub.stop();
    expect(transport.subscribers).toBe(0);
    hub.start();
    expect(transport.subscribers).toBe(1);
  });

  it('gives each listener the events of its types only, and every event to a `*` listener', () => {
    const { transport, hub } = started();
    const brand: NumberedEvent[] = [];
    const all: NumberedEvent[] = [];
    hub.on(['brand', 'skill'], (e) => brand.push(e));
    hub.on('*', (e) => all.push(e));
    transport.emit({ type: 'brand', brandId: 'b1' });
    transport.emit({ type: 'credits' });
    transport.emit({ type: 'skill', brandId: 'b1' });
    expect(brand.map((e) => e.type)).toEqual(['brand', 'skill']);
    expect(all.map((e) => e.type)).toEqual(['brand', 'credits', 'skill']);
    expect(hub.lastSeq).toBe(3);
  });

  it('calls a listener once for an event it hears both by type and by `*`', () => {
    const { transport, hub } = started();
    const heard = vi.fn();
    hub.on(['queue'], heard);
    hub.on('*', heard);
    transport.emit({ type: 'queue' });
    expect(heard).toHaveBeenCalledTimes(1);
  });

  it('stops calling a listener once it unsubscribes', () => {
    const { transport, hub } = started();
    const heard = vi.fn();
    const off = hub.on(['files'], heard);
    transport.emit({ type: 'files', brandId: 'b1' });
    off();
    transport.emit({ type: 'files', brandId: 'b1' });
    expect(heard).toHaveBeenCalledTimes(1);
  });

  it('keeps calling the other listeners when one throws', () => {
    const { transport, hub } = started();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const after = vi.fn();
    hub.on(['settings'], () => {
      throw new Error('a broken listener');
    });
    hub.on(['settings'], after);
    transport.emit({ type: 'settings' });
    expect(after).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('says when the stream is live, and asks everyone again (resync) when it comes back', () => {
    const { transport, hub } = started();
    const heard: NumberedEvent[] = [];
    hub.on(['edits'], (e) => heard.push(e));
    expect(hub.connected).toBe(false);
    expect(hub.everConnected).toBe(false);

    transport.connection(true);
    expect(hub.connected).toBe(true);
    expect(hub.everConnected).toBe(true);
    // A first connection is not a return: nothing was missed.
    expect(heard).toEqual([]);

    transport.emit({ type: 'edits', brandId: 'b1' });
    transport.connection(false);
    expect(hub.connected).toBe(false);
    expect(hub.everConnected).toBe(true);
    expect(heard.map((e) => e.type)).toEqual(['edits']);

    transport.connection(true);
    expect(heard.map((e) => e.type)).toEqual(['edits', 'resync']);
    expect(heard[1]?.seq).toBe(hub.lastSeq);
  });

  it('hears nothing more once stopped', () => {
    const { transport, hub } = started();
    const heard = vi.fn();
    hub.on('*', heard);
    hub.stop();
    transport.emit({ type: 'queue' });
    expect(heard).not.toHaveBeenCalled();
  });
});

// The preload's surface: exactly one named function per contract channel plus `subscribe`
// and `startDrag` (no generic invoke, no ipcRenderer), calls on `bridge:<name>`, the drag on
// `drag:start`, and events forwarded without the IPC event object.
import { expect, test } from 'vitest';
import { CHANNEL_NAMES, channelNames } from '../../contract/index.ts';
import { buildPreloadApi, type IpcRendererLike } from '../../preload/preload-api.ts';

function fakeIpc() {
  const invoked: [string, unknown][] = [];
  const listeners = new Map<string, Set<(event: unknown, payload: unknown) => void>>();
  const ipc: IpcRendererLike = {
    invoke: async (channel, input) => {
      invoked.push([channel, input]);
      return { ok: true, data: channel };
    },
    on: (channel, listener) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)?.add(listener);
    },
    removeListener: (channel, listener) => listeners.get(channel)?.delete(listener),
  };
  return { ipc, invoked, listeners };
}

test('the name list the preload uses is the contract, exactly', () => {
  expect([...CHANNEL_NAMES].sort()).toEqual([...channelNames].sort());
});

test('its keys are the contract’s channels, subscribe and startDrag, nothing else', () => {
  const api = buildPreloadApi(fakeIpc().ipc);
  expect(Object.keys(api).sort()).toEqual([...channelNames, 'subscribe', 'startDrag'].sort());
  expect(Object.isFrozen(api)).toBe(true);
  for (const key of ['invoke', 'send', 'on', 'ipcRenderer', 'call']) expect(key in api).toBe(false);
});

test('a call goes to its own IPC channel', async () => {
  const { ipc, invoked } = fakeIpc();
  const api = buildPreloadApi(ipc);
  await expect(api.library({ brandId: 'b1' })).resolves.toEqual({
    ok: true,
    data: 'bridge:library',
  });
  await api.session();
  expect(invoked).toEqual([
    ['bridge:library', { brandId: 'b1' }],
    ['bridge:session', {}],
  ]);
});

test('startDrag asks on drag:start with the file’s reference, and hands back the answer', async () => {
  const { ipc, invoked } = fakeIpc();
  const api = buildPreloadApi(ipc);
  const target = { area: 'media', brandId: 'b1', path: 'item-1' };
  await expect(api.startDrag(target)).resolves.toEqual({ ok: true, data: 'drag:start' });
  expect(invoked).toEqual([['drag:start', target]]);
});

test('events arrive without the IPC event object, and stop when unsubscribed', () => {
  const { ipc, listeners } = fakeIpc();
  const api = buildPreloadApi(ipc);
  const seen: unknown[][] = [];
  const off = api.subscribe((...args: unknown[]) => void seen.push(args));
  const sender = { sender: { send() {} }, ports: [] };
  for (const listener of listeners.get('bridge:event') ?? [])
    listener(sender, { type: 'queue', seq: 1 });
  expect(seen).toEqual([[{ type: 'queue', seq: 1 }]]);
  off();
  expect(listeners.get('bridge:event')?.size).toBe(0);
});

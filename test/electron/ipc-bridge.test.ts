// The bridge over IPC against a fake of the ipcMain surface and the real engine's dispatch:
// one handler per contract channel, a foreign sender refused before the engine sees anything,
// a malformed payload answered with VALIDATION_ERROR, results in the contract's shape.
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { channelNames } from '../../contract/index.ts';
import { registerBridge, type IpcEventLike } from '../../main/electron/ipc-bridge.ts';
import { createHandlers } from '../../main/engine/app/bridge-handlers.ts';
import { dispatch } from '../../main/engine/app/bridge-dispatch.ts';
import { KEY, startBridge, type Bridge } from '../bridge/harness.ts';

type Listener = (event: IpcEventLike, input: unknown) => unknown;
let b: Bridge;
const handlers = new Map<string, Listener>();
const calls = vi.fn();
let unregister: () => void;

beforeAll(async () => {
  b = await startBridge();
  const engineHandlers = createHandlers(b.app);
  unregister = registerBridge(
    {
      handle: (channel, listener) => void handlers.set(channel, listener),
      removeHandler: (channel) => void handlers.delete(channel),
    },
    (name, input) => {
      calls(name);
      return dispatch(engineHandlers, name, input, () => b.app.secret);
    },
  );
});

afterAll(async () => {
  await b?.close();
});

const fromApp: IpcEventLike = { senderFrame: { url: 'app://brand-sync/#/brands' } };

test('one handler per channel of the contract, and no other', () => {
  expect([...handlers.keys()].sort()).toEqual(channelNames.map((n) => `bridge:${n}`).sort());
});

test('the app page gets the contract shape; the key never crosses', async () => {
  const session = (await handlers.get('bridge:session')?.(fromApp, {})) as {
    ok: boolean;
    data: Record<string, unknown>;
  };
  expect(session).toMatchObject({ ok: true, data: { signedIn: true } });
  expect(JSON.stringify(session)).not.toContain(KEY);
});

test.each([
  { senderFrame: { url: 'https://evil.example/' } },
  { senderFrame: { url: 'file:///etc/passwd' } },
  { senderFrame: { url: 'app://brand-sync.evil/' } },
  { senderFrame: { url: 'not a url' } },
  { senderFrame: null },
])('a foreign sender is refused before the engine is asked (%j)', async (event) => {
  calls.mockClear();
  const answer = await handlers.get('bridge:pause')?.(event, {});
  expect(answer).toMatchObject({
    ok: false,
    error: { code: 'FORBIDDEN_SENDER', retryable: false },
  });
  expect(calls).not.toHaveBeenCalled();
});

test('a malformed payload gets VALIDATION_ERROR with the schema’s words; the next call works', async () => {
  const bad = (await handlers.get('bridge:library')?.(fromApp, { brandId: 42 })) as {
    ok: boolean;
    error: { code: string; message: string };
  };
  expect(bad.ok).toBe(false);
  expect(bad.error.code).toBe('VALIDATION_ERROR');
  expect(bad.error.message).toContain('brandId');
  const good = (await handlers.get('bridge:status')?.(fromApp, undefined)) as { ok: boolean };
  expect(good.ok).toBe(true);
});

test('unregistering removes every handler', () => {
  unregister();
  expect(handlers.size).toBe(0);
});

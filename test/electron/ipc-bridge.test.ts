// The bridge over IPC against a fake of the ipcMain surface and the real engine's dispatch:
// one handler per contract channel, any sender but the app window's main frame on the app's
// page refused before the engine sees anything (a subframe with the app's URL too), a
// malformed payload answered with VALIDATION_ERROR, results in the contract's shape.
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { channelNames } from '../../contract/index.ts';
import {
  registerBridge,
  senderAllowed,
  type FrameLike,
  type IpcEventLike,
} from '../../main/hosts/electron/ipc-bridge.ts';
import { createHandlers } from '../../main/engine/app/bridge-handlers.ts';
import { dispatch } from '../../main/engine/app/bridge-dispatch.ts';
import { KEY, startBridge, type Bridge } from '../bridge/harness.ts';

type Listener = (event: IpcEventLike, input: unknown) => unknown;
let b: Bridge;
const handlers = new Map<string, Listener>();
const calls = vi.fn();
let unregister: () => void;
// The app window's main frame as Electron gives it: one object, its URL changing as it navigates.
const mainFrame: FrameLike & { url: string } = { url: 'app://brand-sync/#/brands' };
let windowOpen = true;

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
    () => (windowOpen ? mainFrame : null),
  );
});

afterAll(async () => {
  await b?.close();
});

const fromApp: IpcEventLike = { senderFrame: mainFrame };

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

async function refusedBeforeTheEngine(event: IpcEventLike): Promise<void> {
  calls.mockClear();
  const answer = await handlers.get('bridge:pause')?.(event, {});
  expect(answer).toMatchObject({
    ok: false,
    error: { code: 'FORBIDDEN_SENDER', retryable: false },
  });
  expect(calls).not.toHaveBeenCalled();
}

test.each([
  ['a subframe of the app page, with the app URL', 'app://brand-sync/#/brands'],
  ['a subframe of the app page, on the app page itself', 'app://brand-sync/'],
  ['a subframe showing a file of the engine', 'app://brand-sync/files/skill/b1/x.svg'],
  ['a frame of another origin', 'https://evil.example/'],
  ['a file:// frame', 'file:///etc/passwd'],
  ['a look-alike host', 'app://brand-sync.evil/'],
  ['not a URL', 'not a url'],
])('refused before the engine is asked: %s', async (_label, url) => {
  // Another frame object than the window's main frame, whatever its URL says.
  await refusedBeforeTheEngine({ senderFrame: { url } });
});

test('refused: a sender without a frame (navigated away or destroyed)', async () => {
  await refusedBeforeTheEngine({ senderFrame: null });
});

test.each([
  'app://brand-sync/files/skill/b1/evil.svg',
  'app://brand-sync/assets/app.js',
  'https://evil.example/',
  'app://brand-sync.evil/',
])('refused: the window main frame itself once it shows %s', async (url) => {
  const before = mainFrame.url;
  mainFrame.url = url;
  try {
    await refusedBeforeTheEngine(fromApp);
  } finally {
    mainFrame.url = before;
  }
});

test('refused: the main frame of a window that is gone (no app window now)', async () => {
  windowOpen = false;
  try {
    await refusedBeforeTheEngine(fromApp);
  } finally {
    windowOpen = true;
  }
});

test('the check on its own: only the very main frame object, on the app page', () => {
  const main = { url: 'app://brand-sync/index.html#/activity' };
  expect(senderAllowed({ senderFrame: main }, main)).toBe(true);
  expect(senderAllowed({ senderFrame: { ...main } }, main)).toBe(false);
  expect(senderAllowed({ senderFrame: main }, null)).toBe(false);
  expect(senderAllowed({ senderFrame: null }, main)).toBe(false);
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

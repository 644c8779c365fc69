/* eslint-disable @typescript-eslint/no-explicit-any -- the bridge's answers are JSON */
// A file dragged out of the desktop window, against a fake of ipcMain, fake senders and
// frames, and the real engine (the simulator's demo data, a real data dir and media cache):
// only the app window's main frame on the app page may ask, a malformed target is refused, a
// Brand Skill file, the logo and a Library item (cached, or fetched first) reach the native
// drag as a file named by its real name with the file's bytes; traversal and a file that
// cannot be had (offline, never cached) are refused in words, and nothing reaches the drag.
import { readFile, readdir, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { AppRuntime } from '../../main/engine/app/app-runtime.ts';
import { fileFor } from '../../main/engine/app/file-access.ts';
import { mediaFile } from '../../main/engine/app/media.ts';
import { libraryItemName } from '../../main/engine/views/library-item-name.ts';
import type { FrameLike } from '../../main/hosts/electron/ipc-bridge.ts';
import {
  DRAG_CHANNEL,
  DRAG_DIR,
  dragFileName,
  registerNativeDrag,
  type DragEventLike,
  type NativeDragOptions,
} from '../../main/hosts/electron/native-drag.ts';
import { startBridge, until, type Bridge } from '../bridge/harness.ts';

type Listener = (event: DragEventLike, input: unknown) => Promise<unknown>;

let b: Bridge;
let northwind: string;
const mainFrame: FrameLike & { url: string } = { url: 'app://brand-sync/#/brands' };
let windowOpen = true;
const ICON = { image: 'tray/in-sync.png' };
const asked = vi.fn();
let handler: Listener;
let stop: () => Promise<void>;

function options(over: Partial<NativeDragOptions> = {}): NativeDragOptions {
  return {
    dataDir: b.app.dataDir,
    appMainFrame: () => (windowOpen ? mainFrame : null),
    fileFor: (rest) => {
      asked(rest);
      return fileFor(b.app, rest);
    },
    mediaItem: (itemId) => {
      const item = b.app.store.library.get(itemId);
      return item === undefined ? null : { name: libraryItemName(item), type: item.type };
    },
    online: () => b.app.engine !== null,
    icon: () => ICON,
    ...over,
  };
}

async function register(over: Partial<NativeDragOptions> = {}) {
  const handlers = new Map<string, Listener>();
  const dispose = await registerNativeDrag(
    {
      handle: (channel, listener) => void handlers.set(channel, listener as Listener),
      removeHandler: (channel) => void handlers.delete(channel),
    },
    options(over),
  );
  return { handlers, dispose };
}

beforeAll(async () => {
  b = await startBridge();
  northwind = await until(async () => {
    const status = await b.ok('status');
    const brand = status.brands.find((x: { name: string }) => x.name === 'Northwind Coffee');
    return brand?.skill.installedSkillId ? (brand.id as string) : undefined;
  }, 'the Brand Skill on disk');
  const registered = await register();
  handler = registered.handlers.get(DRAG_CHANNEL) as Listener;
  stop = registered.dispose;
});

afterAll(async () => {
  await stop?.();
  await b?.close();
});

/** An IPC event from `frame`, whose sender records the drags it is asked for. */
function eventFrom(frame: FrameLike | null) {
  const drags: { file: string; icon: unknown }[] = [];
  const event: DragEventLike = {
    senderFrame: frame,
    sender: { startDrag: (item) => drags.push(item) },
  };
  return { event, drags };
}

async function drag(target: unknown, frame: FrameLike | null = mainFrame) {
  const { event, drags } = eventFrom(frame);
  const answer = (await handler(event, target)) as any;
  return { answer, drags };
}

test('the channel is the preload’s, and a second registration clears what an earlier run left', async () => {
  expect(DRAG_CHANNEL).toBe('drag:start');
  const leftover = path.join(b.app.dataDir, DRAG_DIR, 'old-run', '1');
  await mkdir(leftover, { recursive: true });
  await writeFile(path.join(leftover, 'stale.png'), 'x');
  const second = await register();
  expect(await readdir(path.join(b.app.dataDir, DRAG_DIR)).catch(() => [])).toEqual([]);
  await second.dispose();
});

test.each([
  ['a subframe of the app page, with the app URL', { url: 'app://brand-sync/#/brands' }, true],
  ['the window navigated to a file of the engine', null, true],
  ['the window on another page', null, false],
  ['a frame of another origin', { url: 'https://evil.example/' }, true],
])('refused before the engine is asked: %s', async (label, other, open) => {
  asked.mockClear();
  const before = mainFrame.url;
  if (label.includes('file of the engine')) mainFrame.url = 'app://brand-sync/files/skill/b/x.svg';
  if (label.includes('another page')) mainFrame.url = 'https://evil.example/';
  windowOpen = open;
  try {
    const { answer, drags } = await drag(
      { area: 'skill', brandId: northwind, path: 'SKILL.md' },
      other ?? mainFrame,
    );
    expect(answer).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    expect(drags).toEqual([]);
    expect(asked).not.toHaveBeenCalled();
  } finally {
    mainFrame.url = before;
    windowOpen = true;
  }
});

test('a gone window (no main frame) is refused', async () => {
  windowOpen = false;
  try {
    const { answer, drags } = await drag({ area: 'skill', brandId: northwind, path: 'SKILL.md' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    expect(drags).toEqual([]);
  } finally {
    windowOpen = true;
  }
});

test.each([
  ['nothing', undefined],
  ['a string', 'SKILL.md'],
  ['an empty object', {}],
  ['an area not known', { area: 'disk', brandId: 'b', path: '/etc/passwd' }],
  ['a path that is not text', { area: 'skill', brandId: 'b', path: 7 }],
  ['no brand', { area: 'skill', path: 'SKILL.md' }],
  ['a field more (a path of its own)', { area: 'media', brandId: 'b', path: 'x', file: '/etc' }],
])('a bad target is refused before the engine is asked: %s', async (_label, target) => {
  asked.mockClear();
  const { answer, drags } = await drag(target);
  expect(answer).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
  expect(drags).toEqual([]);
  expect(asked).not.toHaveBeenCalled();
});

async function expectDragged(
  drags: { file: string; icon: unknown }[],
  name: string,
  source: string,
) {
  expect(drags).toHaveLength(1);
  const [dragged] = drags as [{ file: string; icon: unknown }];
  expect(path.basename(dragged.file)).toBe(name);
  expect(dragged.icon).toBe(ICON);
  // A named copy of its own in the data dir, never the original itself.
  expect(dragged.file.startsWith(path.join(b.app.dataDir, DRAG_DIR) + path.sep)).toBe(true);
  expect(Buffer.compare(await readFile(dragged.file), await readFile(source))).toBe(0);
}

test('a Brand Skill file reaches the drag by its own name, with its bytes', async () => {
  const source = await fileFor(b.app, ['skill', northwind, 'guidelines', 'voice.md']);
  expect(source).not.toBeNull();
  const { answer, drags } = await drag({
    area: 'skill',
    brandId: northwind,
    path: 'guidelines/voice.md',
  });
  expect(answer).toEqual({ ok: true });
  await expectDragged(drags, 'voice.md', source?.path as string);
});

test('the logo reaches the drag by its own name, with its bytes', async () => {
  const skill = await b.ok('skill', { brandId: northwind });
  const logo = skill.profile.logo as { area: string; brandId: string; path: string };
  expect(logo).toBeTruthy();
  const source = await fileFor(b.app, [logo.area, logo.brandId, ...logo.path.split('/')]);
  const { answer, drags } = await drag(logo);
  expect(answer).toEqual({ ok: true });
  await expectDragged(drags, path.posix.basename(logo.path), source?.path as string);
});

test('a cached Library item reaches the drag by its real name (not its ID), with its bytes', async () => {
  const { items } = await b.ok('library', { brandId: northwind, type: 'image' });
  const item = items[0];
  const cached = await mediaFile(b.app, item.id);
  expect(cached).not.toBeNull();
  expect(path.basename(cached?.path as string)).not.toBe(item.name);
  const { answer, drags } = await drag(item.file);
  expect(answer).toEqual({ ok: true });
  await expectDragged(drags, item.name, cached?.path as string);
  // Dragged twice: each drag its own file, the same name.
  const again = await drag(item.file);
  expect(again.drags[0]?.file).not.toBe(drags[0]?.file);
  expect(path.basename(again.drags[0]?.file as string)).toBe(item.name);
});

test('a Library item never cached is fetched first, then dragged', async () => {
  const { items } = await b.ok('library', { brandId: northwind, type: 'image' });
  const item = items.find((i: any) => !i.cached);
  expect(item).toBeTruthy();
  const { answer, drags } = await drag(item.file);
  expect(answer).toEqual({ ok: true });
  const cached = b.app.store.mediaCache.get(item.id);
  expect(cached).toBeDefined();
  const inCache = await mediaFile(b.app, item.id);
  await expectDragged(drags, item.name, inCache?.path as string);
});

test('traversal in a skill path is refused, whatever its spelling', async () => {
  // Paths that lead, from the Brand Skill folder, to the database in the data dir.
  const skillMd = (await fileFor(b.app, ['skill', northwind, 'SKILL.md']))?.path as string;
  const db = path.join(b.app.dataDir, 'brand-sync.db');
  const up = path.relative(path.dirname(skillMd), db).split(path.sep).join('/');
  expect(up.startsWith('../')).toBe(true);
  for (const p of [up, `guidelines/../${up}`, db, up.replaceAll('/', '\\'), `./${up}`]) {
    asked.mockClear();
    const { answer, drags } = await drag({ area: 'skill', brandId: northwind, path: p });
    expect(answer, p).toMatchObject({ ok: false, error: { code: 'FILE_UNAVAILABLE' } });
    expect(drags, p).toEqual([]);
  }
});

test('a Library item that cannot be had (offline, never cached) is refused in words', async () => {
  // The runtime as it is offline or signed out: no engine to fetch with.
  const offline = {
    store: b.app.store,
    dataDir: b.app.dataDir,
    engine: null,
    requireEngine: () => {
      throw new Error('offline');
    },
  } as unknown as AppRuntime;
  const { items } = await b.ok('library', { brandId: northwind, type: 'image' });
  const item = items.find((i: any) => !i.cached);
  expect(item).toBeTruthy();
  const off = await register({ fileFor: (rest) => fileFor(offline, rest), online: () => false });
  try {
    const { event, drags } = eventFrom(mainFrame);
    const answer = (await off.handlers.get(DRAG_CHANNEL)?.(event, item.file)) as any;
    expect(answer).toMatchObject({ ok: false, error: { code: 'FILE_UNAVAILABLE' } });
    expect(answer.error.message).toMatch(/offline/);
    expect(drags).toEqual([]);
  } finally {
    await off.dispose();
  }
});

test('a video is fetched into the media cache and dragged like an image (the cache keeps it)', async () => {
  const { items } = await b.ok('library', { brandId: northwind, type: 'video' });
  const item = items[0];
  const { answer, drags } = await drag(item.file);
  expect(answer).toEqual({ ok: true });
  const inCache = await mediaFile(b.app, item.id);
  expect(inCache).not.toBeNull();
  await expectDragged(drags, item.name, inCache?.path as string);
});

test('an item not in the Library is refused in words', async () => {
  const { answer, drags } = await drag({ area: 'media', brandId: northwind, path: 'no-such-item' });
  expect(answer).toMatchObject({
    ok: false,
    error: { code: 'FILE_UNAVAILABLE', message: 'This item is not in the Library any more.' },
  });
  expect(drags).toEqual([]);
});

test('a name that could escape its folder is made safe', () => {
  expect(dragFileName('../../evil.png')).toBe('..-..-evil.png');
  expect(dragFileName('a/b\\c:d.png')).toBe('a-b-c-d.png');
  expect(dragFileName('..')).toBe('file');
  expect(dragFileName('')).toBe('file');
  expect(dragFileName('x\u202Egnp.exe')).toBe('x-gnp.exe');
});

// The window's side (renderer/src/lib/dnd/drag-out.ts), with a fake element and drag event:
// in the desktop app the HTML drag is cancelled and the preload's startDrag gets the
// reference; in a browser the HTML drag carries DownloadURL as before.
function fakeDragStart() {
  const listeners = new Map<string, (event: unknown) => void>();
  const node = {
    draggable: false,
    addEventListener: (type: string, fn: (event: unknown) => void) => listeners.set(type, fn),
    removeEventListener: (type: string) => listeners.delete(type),
  };
  const data = new Map<string, string>();
  const event = {
    preventDefault: vi.fn(),
    dataTransfer: { effectAllowed: 'none', setData: (k: string, v: string) => data.set(k, v) },
  };
  return { node, data, event, fire: () => listeners.get('dragstart')?.(event) };
}

// The window's code is checked against the DOM by svelte-check, not by this project's tsc
// (no DOM types here): it is loaded by address, with the one export used typed here.
type DragOut = (
  file: () => unknown,
  refused?: (message: string) => void,
) => (node: unknown) => unknown;
const DRAG_OUT = new URL('../../renderer/src/lib/dnd/drag-out.ts', import.meta.url).href;
const loadDragOut = async () => ((await import(DRAG_OUT)) as { dragOut: DragOut }).dragOut;

const REF = { area: 'media' as const, brandId: 'b1', path: 'item-1' };
const FILE = { url: '/files/media/item-1', name: 'Latte art.png', mimeType: 'image/png', ref: REF };

test('in the desktop app a drag start asks the preload’s startDrag and cancels the HTML drag', async () => {
  const dragOut = await loadDragOut();
  const startDrag = vi.fn(async () => ({
    ok: false,
    error: { code: 'FILE_UNAVAILABLE', message: 'Never fetched, and offline.' },
  }));
  vi.stubGlobal('brandSync', { startDrag });
  vi.stubGlobal('location', { href: 'app://brand-sync/' });
  try {
    const refused = vi.fn();
    const { node, data, event, fire } = fakeDragStart();
    dragOut(() => FILE, refused)(node);
    expect(node.draggable).toBe(true);
    fire();
    expect(event.preventDefault).toHaveBeenCalled();
    expect(startDrag).toHaveBeenCalledWith(REF);
    expect(data.size).toBe(0);
    await vi.waitFor(() => expect(refused).toHaveBeenCalledWith('Never fetched, and offline.'));
  } finally {
    vi.unstubAllGlobals();
  }
});

test('in a browser the drag is the HTML one, with DownloadURL', async () => {
  const dragOut = await loadDragOut();
  vi.stubGlobal('location', { href: 'http://127.0.0.1:4000/' });
  try {
    const { node, data, event, fire } = fakeDragStart();
    dragOut(() => FILE)(node);
    fire();
    expect(event.preventDefault).not.toHaveBeenCalled();
    expect(data.get('DownloadURL')).toBe(
      'image/png:Latte art.png:http://127.0.0.1:4000/files/media/item-1',
    );
  } finally {
    vi.unstubAllGlobals();
  }
});

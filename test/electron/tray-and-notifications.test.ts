// The tray's state for each engine state, its menu, and the OS notifications: one per kind a
// minute, each opening the window at the right place.
import { expect, test } from 'vitest';
import type { NumberedEvent, StatusDoc } from '../../contract/index.ts';
import {
  createNotifier,
  NOTIFY_EVERY_MS,
  type ShownNotification,
} from '../../main/hosts/electron/os-notifications.ts';
import {
  TRAY_KINDS,
  trayIconPath,
  trayMenu,
  trayState,
} from '../../main/hosts/electron/tray-state.ts';
import {
  boundsOnScreen,
  loadWindowState,
  saveWindowState,
} from '../../main/hosts/electron/window-state.ts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

function status(
  patch: { queue?: Partial<StatusDoc['queue']>; online?: boolean | null } = {},
): StatusDoc {
  return {
    signedIn: true,
    brands: [],
    brandsSyncedAt: null,
    queue: {
      userPaused: false,
      paused: false,
      conditions: [],
      rateLimitedUntil: null,
      running: 0,
      counts: {},
      ...patch.queue,
    },
    connection: { online: patch.online ?? true, since: null, message: null },
    credits: [],
    files: {},
    lastErrors: [],
  };
}

test.each([
  ['signed out', null, false, 'signed-out'],
  ['in sync', status(), true, 'in-sync'],
  ['syncing', status({ queue: { running: 2, counts: { queued: 3 } } }), true, 'syncing'],
  ['paused', status({ queue: { userPaused: true, paused: true, running: 1 } }), true, 'paused'],
  ['offline', status({ online: false, queue: { counts: { queued: 4 } } }), true, 'offline'],
  ['failed items', status({ queue: { counts: { failed: 2 } } }), true, 'needs-you'],
  [
    'account problem',
    status({
      queue: {
        paused: true,
        conditions: [
          {
            name: 'account',
            code: 'ACCOUNT_BANNED',
            message: 'The account is suspended.',
            since: null,
            nextProbeAt: null,
          },
        ],
      },
    }),
    true,
    'needs-you',
  ],
] as const)('tray: %s', (_name, doc, signedIn, kind) => {
  const state = trayState(doc, signedIn);
  expect(state.kind).toBe(kind);
  expect(state.label.startsWith('Brand Sync')).toBe(true);
});

test('syncing says how many, with the right noun', () => {
  expect(trayState(status({ queue: { running: 1 } }), true).label).toBe(
    'Brand Sync: syncing 1 item',
  );
  expect(trayState(status({ queue: { running: 1, counts: { queued: 4 } } }), true).label).toBe(
    'Brand Sync: syncing 5 items',
  );
});

test('the menu: open, pause or resume, sync now, open the sync root, quit', () => {
  const running = trayMenu(trayState(status(), true), false);
  expect(running.filter((i) => i.action).map((i) => i.action)).toEqual([
    'open',
    'pause',
    'sync-now',
    'open-root',
    'quit',
  ]);
  const paused = trayMenu(trayState(status({ queue: { userPaused: true } }), true), true);
  expect(paused.find((i) => i.action === 'resume')?.enabled).toBe(true);
  expect(paused.find((i) => i.action === 'sync-now')?.enabled).toBe(false);
  const out = trayMenu(trayState(null, false), false);
  expect(out.find((i) => i.action === 'pause')?.enabled).toBe(false);
  expect(out.find((i) => i.action === 'open')?.enabled).toBe(true);
});

const notifyEvent = (
  kind: 'skill-updated' | 'brand-ready' | 'brand-failed' | 'upload-failed' | 'signed-out',
  brandId: string | null = 'b1',
): NumberedEvent => ({
  type: 'notify',
  kind,
  title: `t ${kind}`,
  message: `m ${kind}`,
  brandId,
  seq: 1,
  at: '2026-11-25T00:00:00Z',
});

test('notifications: one per kind a minute; a click target for each', () => {
  let now = 1_000_000;
  const shown: ShownNotification[] = [];
  const notify = createNotifier({ show: (n) => void shown.push(n), now: () => now });
  expect(notify(notifyEvent('skill-updated'))).toBe(true);
  expect(notify(notifyEvent('skill-updated'))).toBe(false);
  expect(notify(notifyEvent('upload-failed'))).toBe(true);
  expect(notify({ type: 'queue', seq: 2, at: '' })).toBe(false);
  now += NOTIFY_EVERY_MS - 1;
  expect(notify(notifyEvent('skill-updated'))).toBe(false);
  now += 1;
  expect(notify(notifyEvent('skill-updated'))).toBe(true);
  expect(notify(notifyEvent('signed-out', null))).toBe(true);
  expect(shown.map((n) => n.target)).toEqual([
    '#/brand/b1/skill',
    '#/brand/b1/files',
    '#/brand/b1/skill',
    '#/brands',
  ]);
  expect(shown[0]).toMatchObject({ title: 't skill-updated', body: 'm skill-updated' });
});

test('window state: kept across starts, and put back on a screen that exists', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'window-state-'));
  try {
    expect(await loadWindowState(dir)).toEqual({ bounds: null, maximized: false });
    await saveWindowState(dir, {
      bounds: { x: 10, y: 20, width: 1000, height: 700 },
      maximized: true,
    });
    expect(await loadWindowState(dir)).toEqual({
      bounds: { x: 10, y: 20, width: 1000, height: 700 },
      maximized: true,
    });
    await writeFile(path.join(dir, 'window-state.json'), '{"bounds":{"x":"a"}}');
    expect((await loadWindowState(dir)).bounds).toBeNull();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];
  expect(boundsOnScreen({ x: 100, y: 100, width: 1000, height: 700 }, screen)).not.toBeNull();
  // On a monitor unplugged since: forgotten.
  expect(boundsOnScreen({ x: 2500, y: 100, width: 1000, height: 700 }, screen)).toBeNull();
  expect(boundsOnScreen({ x: 0, y: 0, width: 100, height: 100 }, screen)).toBeNull();
});

test('each tray state has its own image, 16 px and 32 px for high-density screens', async () => {
  const { readFile } = await import('node:fs/promises');
  const size = (png: Buffer): [number, number] => {
    // A PNG: the signature, then IHDR with width and height.
    expect(png.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
    expect(png.toString('latin1', 12, 16)).toBe('IHDR');
    return [png.readUInt32BE(16), png.readUInt32BE(20)];
  };
  const seen = new Map<string, string>();
  for (const kind of TRAY_KINDS) {
    const file = path.join('renderer/public', trayIconPath(kind));
    const small = await readFile(file);
    const large = await readFile(file.replace(/\.png$/, '@2x.png'));
    expect(size(small)).toEqual([16, 16]);
    expect(size(large)).toEqual([32, 32]);
    const key = large.toString('base64');
    expect(seen.get(key), `${kind} looks like ${seen.get(key)}`).toBeUndefined();
    seen.set(key, kind);
  }
});

// Start at login on Linux: an XDG autostart entry under $XDG_CONFIG_HOME (Electron has no
// Linux login items), in plain Node against a temp dir.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import {
  autostartDir,
  DESKTOP_FILE,
  linuxAutostartEnabled,
  setLinuxAutostart,
} from '../../main/hosts/electron/autostart.ts';
import { loginItemFor } from '../../main/hosts/electron/login-item.ts';

let dir: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'autostart-'));
  env = { XDG_CONFIG_HOME: path.join(dir, 'config'), HOME: path.join(dir, 'home') };
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('on: a desktop entry that starts the app, its arguments quoted; off: gone', () => {
  const command = ['/opt/Brand Sync/brand-sync', '--hidden', 'a"b$c'];
  setLinuxAutostart(true, command, env);
  const file = path.join(dir, 'config', 'autostart', DESKTOP_FILE);
  const text = readFileSync(file, 'utf8');
  expect(text).toMatch(/^\[Desktop Entry\]\nType=Application\nName=Brand Sync\n/);
  expect(text).toContain('Exec="/opt/Brand Sync/brand-sync" --hidden "a\\"b\\$c"\n');
  expect(linuxAutostartEnabled(env)).toBe(true);
  setLinuxAutostart(false, command, env);
  expect(existsSync(file)).toBe(false);
  expect(linuxAutostartEnabled(env)).toBe(false);
  // Off twice is fine.
  setLinuxAutostart(false, command, env);
});

test('an entry turned off by the desktop (Hidden=true) counts as off', async () => {
  setLinuxAutostart(true, ['/usr/bin/brand-sync'], env);
  const file = path.join(autostartDir(env), DESKTOP_FILE);
  const { appendFileSync } = await import('node:fs');
  appendFileSync(file, 'Hidden=true\n');
  expect(linuxAutostartEnabled(env)).toBe(false);
});

test('without XDG_CONFIG_HOME (or with a relative one): ~/.config/autostart', () => {
  expect(autostartDir({ HOME: '/home/ada' })).toBe('/home/ada/.config/autostart');
  expect(autostartDir({ HOME: '/home/ada', XDG_CONFIG_HOME: 'rel' })).toBe(
    '/home/ada/.config/autostart',
  );
});

test('macOS and Windows use the login item settings', () => {
  let open = false;
  const app = {
    getLoginItemSettings: () => ({ openAtLogin: open }),
    setLoginItemSettings: (s: { openAtLogin: boolean }) => void (open = s.openAtLogin),
  };
  for (const platform of ['darwin', 'win32'] as const) {
    const item = loginItemFor(platform, app, ['/x']);
    item.set(true);
    expect(item.get()).toBe(true);
    item.set(false);
    expect(item.get()).toBe(false);
  }
});

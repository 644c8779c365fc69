// `npm start` where Electron's runtime cannot start (as on these machines): one line says
// why, then the demo serves the window and prints its URL; Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, test } from 'vitest';

const START = fileURLToPath(new URL('../../bin/start.js', import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'start-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('without a desktop runtime, npm start says why in one line and serves the demo window', async () => {
  const child = spawn(process.execPath, [START, '--port', '0'], {
    // No display, no browser to open: the URL is printed instead.
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      BRAND_SYNC_NO_DESKTOP: '1',
      XDG_CONFIG_HOME: path.join(dir, 'config'),
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const end = Date.now() + 20_000;
  while (!/token=/.test(stdout) && Date.now() < end && child.exitCode === null) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGINT');
  expect(await exited).toBe(0);
  expect(stderr.split('\n')[0]).toBe(
    'The desktop app cannot start here (BRAND_SYNC_NO_DESKTOP is set): running the demo in the browser instead.',
  );
  expect(stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/m);
});

test('the reason names what is missing, and nothing is downloaded to find out', async () => {
  const { desktopUnavailable } = await import('../../bin/start.js');
  const why = desktopUnavailable({ DISPLAY: ':0' });
  // Here Electron's runtime is never installed (its download cannot work).
  expect(why).toMatch(/Electron's runtime/);
  expect(desktopUnavailable({ BRAND_SYNC_NO_DESKTOP: '1' })).toBe('BRAND_SYNC_NO_DESKTOP is set');
});

// `demo` (what `npm start` runs) as the real bin: it prints the window's URL first and a
// command that reaches it from another terminal (which works exactly as printed), sample
// brands get folders, a ready brand's Brand Skill lands on disk, a dropped image is uploaded,
// a second demo on the same folders points to the first, and Ctrl-C stops it cleanly.
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { runCli, startCli } from '../support/run-cli.ts';
import { makePng } from '../folder-parts/fixtures.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cli-demo-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('demo syncs the sample brands, uploads a dropped image, and stops on SIGINT', async () => {
  const root = path.join(dir, 'root');
  const child = startCli(
    ['--data-dir', path.join(dir, 'data'), '--root', root, 'demo', '--port', '0'],
    { HOME: dir },
  );
  try {
    await until(() => child.stdout.includes('npx brand-sync status'), 'the demo to start');
    const lines = child.stdout.split('\n');
    expect(lines[0]).toBe('Brand Sync is running. Open this URL in a browser on this computer:');
    expect(lines[1]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+$/);
    // The printed export line, exactly as printed, reaches this demo from another process.
    const exportLine = lines.find((l) => l.trim().startsWith('export '));
    expect(exportLine).toBeDefined();
    const env = Object.fromEntries(
      [...(exportLine as string).matchAll(/(BRAND_SYNC_\w+)=(\S+)/g)].map((m) => [m[1], m[2]]),
    );
    await until(() => existsSync(path.join(root, 'Lumen Labs')), 'the brand folders');
    const status = await runCli(['status'], { ...env, HOME: dir });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('Northwind Coffee');
    const second = await runCli(
      ['--data-dir', path.join(dir, 'data'), '--root', root, 'demo', '--port', '0'],
      { HOME: dir },
    );
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('a demo is already running on these folders');
    expect(second.stderr).toContain(lines[1] as string);
    await until(
      () => existsSync(path.join(root, 'Northwind Coffee', 'Brand Skill')),
      'the ready brand’s Brand Skill',
    );
    await writeFile(path.join(root, 'Northwind Coffee', 'shelf.png'), makePng({ seed: 7 }));
    await until(
      () => /done: file Northwind Coffee\/shelf\.png/.test(child.stderr),
      'the dropped image’s upload',
    );
  } finally {
    child.kill('SIGINT');
  }
  expect(await child.exited).toBe(0);
  expect(child.stderr).toContain('Stopped.');
  expect(child.stderr).not.toMatch(/demo-[0-9a-f]{32}/);
  expect(child.stderr).not.toMatch(/\n\s+at /);
});

test('demo --open hands the browser a one-time code, never the token; the lock with the URL is private', async () => {
  // A desktop opener that only notes what it was given.
  const bin = path.join(dir, 'bin');
  await mkdir(bin);
  const opened = path.join(dir, 'opened');
  await writeFile(path.join(bin, 'xdg-open'), `#!/bin/sh\necho "$@" >> '${opened}'\n`);
  await chmod(path.join(bin, 'xdg-open'), 0o755);
  const data = path.join(dir, 'data');
  const child = startCli(
    ['--data-dir', data, '--root', path.join(dir, 'root'), 'demo', '--port', '0', '--open'],
    { HOME: dir, PATH: `${bin}:${process.env.PATH ?? ''}` },
  );
  try {
    await until(() => existsSync(opened) && child.stdout.includes('token='), 'the browser opened');
    const printed = /^http:\/\/127\.0\.0\.1:\d+\/\?token=([\w-]+)$/m.exec(child.stdout);
    expect(printed).not.toBeNull();
    const token = (printed as RegExpExecArray)[1] as string;
    const given = (await readFile(opened, 'utf8')).trim();
    expect(given).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?code=[\w-]+$/);
    expect(given).not.toContain(token);
    const first = await fetch(given, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect((await fetch(given, { redirect: 'manual' })).status).toBe(401);
    expect((await stat(data)).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(data, 'demo.lock'))).mode & 0o777).toBe(0o600);
    expect(await readFile(path.join(data, 'demo.lock'), 'utf8')).toContain(token);
  } finally {
    child.kill('SIGINT');
  }
  expect(await child.exited).toBe(0);
});

test('demo --open says so beside the URL when no browser could be opened', async () => {
  // xdg-open's own status when it finds no browser: 3.
  const bin = path.join(dir, 'bin');
  await mkdir(bin);
  await writeFile(path.join(bin, 'xdg-open'), '#!/bin/sh\nexit 3\n');
  await chmod(path.join(bin, 'xdg-open'), 0o755);
  const child = startCli(
    [
      '--data-dir',
      path.join(dir, 'data'),
      '--root',
      path.join(dir, 'root'),
      'demo',
      '--port',
      '0',
      '--open',
    ],
    { HOME: dir, PATH: `${bin}:${process.env.PATH ?? ''}` },
  );
  try {
    await until(
      () => child.stderr.includes('No browser could be opened here'),
      'the note that no browser opened',
    );
    expect(child.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/m);
  } finally {
    child.kill('SIGINT');
  }
  expect(await child.exited).toBe(0);
});

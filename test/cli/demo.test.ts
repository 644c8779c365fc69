// `demo` (what `npm start` runs) as the real bin: it prints the window's URL first and a
// command that reaches it from another terminal (which works exactly as printed), sample
// brands get folders, a ready brand's Brand Skill lands on disk, a dropped image is uploaded,
// a second demo on the same folders points to the first, and Ctrl-C stops it cleanly.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { runCli, startCli } from '../support/run-cli.ts';
import { makePng } from '../folders/fixtures.ts';

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

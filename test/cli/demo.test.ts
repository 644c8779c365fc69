// `demo` (what `npm start` runs) as the real bin: sample brands get folders, a ready brand's
// Brand Skill lands on disk, a dropped image is uploaded, and Ctrl-C stops it cleanly.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { BIN } from '../support/run-cli.ts';
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
  const child = spawn(
    process.execPath,
    [BIN, '--data-dir', path.join(dir, 'data'), '--root', root, 'demo'],
    { env: { PATH: process.env.PATH, HOME: dir } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    await until(() => stdout.includes('Demo running'), 'the demo to start');
    await until(
      () => existsSync(path.join(root, 'Northwind Coffee', 'Brand Skill')),
      'the ready brand’s Brand Skill',
    );
    await writeFile(path.join(root, 'Northwind Coffee', 'shelf.png'), makePng({ seed: 7 }));
    await until(
      () => /done: file Northwind Coffee\/shelf\.png/.test(stderr),
      'the dropped image’s upload',
    );
  } finally {
    child.kill('SIGINT');
  }
  expect(await exited).toBe(0);
  expect(stderr).toContain('Demo stopped.');
  expect(stderr).not.toMatch(/demo-[0-9a-f]{32}/);
  expect(stderr).not.toMatch(/\n\s+at /);
});

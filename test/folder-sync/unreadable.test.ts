// A file without read permission is skipped with the reason (not a failure), and taken once
// it can be read. Root reads any file whatever its mode, so `brand-sync sync --once` runs
// here as the unprivileged user `nobody`, for whom the mode holds.
import { spawn } from 'node:child_process';
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../../simulator/index.ts';
import { openStore } from '../../main/engine/store/index.ts';
import { BIN } from '../support/run-cli.ts';
import { makePng } from '../folder-parts/fixtures.ts';
import { sha256 } from './harness.ts';

const KEY = 'sk-unreadable-0123456789';
const NOBODY = 65534;
let sim: Simulator;
let dir: string;

beforeEach(async () => {
  sim = await startSimulator({ apiKeys: [KEY], speed: 1000, rateLimit: false });
  dir = await mkdtemp(path.join(os.tmpdir(), 'folder-sync-nobody-'));
  await chown(dir, NOBODY, NOBODY);
});
afterEach(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

function syncAsNobody(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'sync', '--once', '--json'], {
      uid: NOBODY,
      gid: NOBODY,
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        BRAND_SYNC_BASE_URL: sim.baseUrl,
        BRAND_SYNC_API_KEY: KEY,
        BRAND_SYNC_DATA_DIR: path.join(dir, 'data'),
        BRAND_SYNC_ROOT: path.join(dir, 'root'),
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test.skipIf(process.getuid?.() !== 0)(
  'a file without read permission is skipped with the reason, then taken once readable',
  async () => {
    const brand = await sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const first = await syncAsNobody();
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);

    const locked = path.join(dir, 'root', 'Acme', 'locked.png');
    const bytes = makePng({ seed: 7 });
    await writeFile(locked, bytes);
    await chown(locked, NOBODY, NOBODY);
    await chmod(locked, 0o000);
    const open = path.join(dir, 'root', 'Acme', 'open.png');
    await writeFile(open, makePng({ seed: 8 }));
    await chown(open, NOBODY, NOBODY);

    const second = await syncAsNobody();
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0); // skipped is not failed
    const report = JSON.parse(second.stdout);
    expect(report.sections.folders.skipped).toEqual([
      {
        brandId: brand.id,
        folder: 'Acme',
        path: 'locked.png',
        code: 'UNREADABLE',
        reason: 'The file cannot be read: permission denied (EACCES)',
      },
    ]);
    expect(report.sections.folders.uploaded.map((u: { path: string }) => u.path)).toEqual([
      'open.png',
    ]);

    // chmod alone (size and mtime unchanged) is enough for the next pass to take it.
    await chmod(locked, 0o644);
    const third = await syncAsNobody();
    expect(third.code).toBe(0);
    expect(
      JSON.parse(third.stdout).sections.folders.uploaded.map((u: { path: string }) => u.path),
    ).toEqual(['locked.png']);
    expect(sim.control.uploads(brand.id).map((u) => u.sha256)).toContain(sha256(bytes));
    const store = openStore({ dataDir: path.join(dir, 'data') });
    try {
      expect(store.files.getByPath(brand.id, 'locked.png')).toMatchObject({ state: 'uploaded' });
    } finally {
      store.close();
    }
  },
  60_000,
);

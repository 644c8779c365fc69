// The kill test of the folder sync: `brand-sync run` uploading 300 files is killed with
// SIGKILL again and again; a final `sync --once` then finds every file in the Library, and
// the service's receipts show that no file was sent more than once per kill.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../../simulator/index.ts';
import { openStore } from '../../main/engine/store/index.ts';
import { DEFAULT_UPLOAD_CONCURRENCY } from '../../main/engine/folder-sync/upload-job.ts';
import { BIN, runCli } from '../support/run-cli.ts';
import { makePng } from '../folder-parts/fixtures.ts';
import { sha256 } from './harness.ts';
import { prng } from '../support/crash-child.ts';

const FILES = 300;
const KILLS = 8;
const KEY = 'sk-folder-kill-0123456789';
let sim: Simulator;
let dir: string;

beforeAll(async () => {
  // Uploads take a little time, so that every kill lands while files are being sent.
  sim = await startSimulator({
    apiKeys: [KEY],
    speed: 1000,
    rateLimit: false,
    faults: 'POST /v1/images/uploads/file: latency=10-40',
  });
  dir = await mkdtemp(path.join(os.tmpdir(), 'folder-kill-'));
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

const env = () => ({
  PATH: process.env.PATH,
  HOME: dir,
  BRAND_SYNC_BASE_URL: sim.baseUrl,
  BRAND_SYNC_API_KEY: KEY,
  BRAND_SYNC_DATA_DIR: path.join(dir, 'data'),
  BRAND_SYNC_ROOT: path.join(dir, 'root'),
});

/** Distinct images the service holds for the brand. */
const stored = (brandId: string) => sim.control.uploads(brandId).length;

test(`${FILES} files survive ${KILLS} SIGKILLs of run: all in the Library, none sent more than once per kill`, async () => {
  const seed = Number(process.env.KILL_SEED) || Date.now() >>> 0;
  const random = prng(seed);
  const context = `(replay with seed ${seed})`;
  const brand = await sim.control.seedBrand({ name: 'Acme', status: 'ready' });
  const shas = new Set<string>();
  for (let i = 0; i < FILES; i++) {
    const bytes = makePng({ seed: i % 256, width: 4 + Math.floor(i / 256), height: 3 });
    shas.add(sha256(bytes));
    const abs = path.join(dir, 'root', 'Acme', `set-${i % 5}`, `img-${i}.png`);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, bytes);
  }
  expect(shas.size).toBe(FILES);

  let kills = 0;
  let attempts = 0;
  while (kills < KILLS && stored(brand.id) < FILES && attempts++ < KILLS * 3) {
    const before = stored(brand.id);
    const child: ChildProcess = spawn(process.execPath, [BIN, 'run'], {
      env: env(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const exit = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    // Kill once a few more files are in (mid-upload), or at a random moment of start-up.
    const more = 3 + Math.floor(random() * 25);
    const startupKill = random() < 0.2;
    const deadline = Date.now() + 15_000;
    const startedAt = Date.now();
    const killAtMs = 300 + random() * 1200;
    while (Date.now() < deadline && child.exitCode === null) {
      if (startupKill ? Date.now() - startedAt >= killAtMs : stored(brand.id) >= before + more)
        break;
      if (stored(brand.id) >= FILES) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(child.exitCode, `run exited by itself: ${stderr} ${context}`).toBeNull();
    child.kill('SIGKILL');
    await exit;
    kills++;
    expect(stderr, context).not.toMatch(/INTERNAL|\n\s+at /);
  }
  expect(kills, context).toBeGreaterThanOrEqual(6);

  const final = await runCli(['sync', '--once', '--json'], env(), KEY);
  expect(final.stderr, context).toBe('');
  const report = JSON.parse(final.stdout);
  // The pass fails only for another feature's job (a Brand Skill download killed in every
  // run can run out of attempts); none of the folder sync's work may fail.
  const ours = report.failures.filter((f: { area: string }) =>
    ['file', 'logo', 'folder'].includes(f.area),
  );
  expect(ours, context).toEqual([]);
  expect(report.sections.folders.failed, context).toEqual([]);
  expect(final.code === 0 || report.failures.length > 0, context).toBe(true);

  const uploads = sim.control.uploads(brand.id);
  expect(new Set(uploads.map((u) => u.sha256)), `every file is in the Library ${context}`).toEqual(
    shas,
  );
  let resent = 0;
  for (const u of uploads) {
    expect(
      u.received,
      `${u.sha256} received ${u.received} times, ${kills} kills ${context}`,
    ).toBeLessThanOrEqual(1 + kills);
    resent += u.received - 1;
  }
  // Only uploads in flight at a kill can go out again.
  expect(resent, context).toBeLessThanOrEqual(kills * DEFAULT_UPLOAD_CONCURRENCY);

  const store = openStore({ dataDir: path.join(dir, 'data') });
  try {
    expect(store.integrityCheck()).toEqual(['ok']);
    const left = store.files
      .list({ brandId: brand.id, limit: 1000 })
      .filter((f) => f.state !== 'uploaded')
      .map((f) => `${f.relPath} ${f.state} ${f.reason} ${f.lastError}`);
    expect(left, context).toEqual([]);
    expect(store.files.countsByState(brand.id), context).toMatchObject({
      uploaded: FILES,
      waiting: 0,
      uploading: 0,
      failed: 0,
      skipped: 0,
    });
    const ids = new Map(uploads.map((u) => [u.sha256, u.id]));
    for (const file of store.files.list({ brandId: brand.id, limit: 1000 })) {
      expect(file.imageId, `${file.relPath} ${context}`).toBe(ids.get(file.sha256!));
    }
  } finally {
    store.close();
  }
}, 120_000);

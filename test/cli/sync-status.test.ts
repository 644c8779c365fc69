// `sync --once` and `status` as the real bin against the simulator: exit codes, the --json
// documents, and status answering from the store with the service gone.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../../simulator/index.ts';
import { runCli } from '../support/run-cli.ts';

const KEY = 'sk-sync-status-0123456789';
let sim: Simulator;
let dir: string;

beforeEach(async () => {
  sim = await startSimulator({ apiKeys: [KEY], speed: 1000, rateLimit: false });
  dir = await mkdtemp(path.join(os.tmpdir(), 'cli-sync-'));
});
afterEach(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

function env(extra: Record<string, string | undefined> = {}) {
  return {
    HOME: dir,
    BRAND_SYNC_BASE_URL: sim.baseUrl,
    BRAND_SYNC_API_KEY: KEY,
    BRAND_SYNC_DATA_DIR: path.join(dir, 'data'),
    BRAND_SYNC_ROOT: path.join(dir, 'root'),
    ...extra,
  };
}

test('sync --once makes a folder per brand and exits 0; status then reads the store offline', async () => {
  const brand = await sim.control.seedBrand({ name: 'Acme Coffee', status: 'ready' });
  await sim.control.setCredits(null, { balance: 17 });
  const sync = await runCli(['sync', '--once', '--json'], env(), KEY);
  expect(sync.stderr).toBe('');
  expect(sync.code).toBe(0);
  const report = JSON.parse(sync.stdout);
  expect(report.ok).toBe(true);
  expect(report.failures).toEqual([]);
  expect(await readdir(path.join(dir, 'root'))).toContain('Acme Coffee');

  await sim.close();
  const status = await runCli(['status', '--json'], env({ BRAND_SYNC_API_KEY: undefined }), KEY);
  expect(status.code).toBe(0);
  const doc = JSON.parse(status.stdout);
  expect(doc.brands).toHaveLength(1);
  expect(doc.brands[0]).toMatchObject({ id: brand.id, name: 'Acme Coffee', folder: 'Acme Coffee' });
  expect(doc.credits[0]).toMatchObject({ workspaceId: null, balance: 17 });
  const human = await runCli(['status'], env({ BRAND_SYNC_API_KEY: undefined }), KEY);
  expect(human.code).toBe(0);
  expect(human.stdout).toMatch(/Acme Coffee\s+ready/);
  expect(human.stdout).toMatch(/Credits:\s+Personal: 17/);
  sim = await startSimulator({ apiKeys: [KEY] });
});

test('sync --once on a banned account exits 1 with the service code, never the key', async () => {
  await sim.control.ban(KEY);
  const sync = await runCli(['sync', '--once'], env(), KEY);
  expect(sync.code).toBe(1);
  expect(sync.stdout).toMatch(/Stopped: ACCOUNT_BANNED/);
});

test('sync without --once is bad usage (exit 2), with one clear line', async () => {
  const sync = await runCli(['sync'], env(), KEY);
  expect(sync.code).toBe(2);
  expect(sync.stderr.trim().split('\n')).toHaveLength(1);
  expect(sync.stderr).toMatch(/--once/);
});

// `sync --once` and `status` as the real bin against the simulator: exit codes, the --json
// documents, and status answering from the store with the service gone.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { startSimulator } from '../../simulator/index.ts';
import { useCliFixture } from '../support/cli-fixture.ts';
import { runCli } from '../support/run-cli.ts';

const KEY = 'sk-sync-status-0123456789';
const f = useCliFixture(KEY);
const env = f.env;

test('sync --once makes a folder per brand and exits 0; status then reads the store offline', async () => {
  const brand = await f.sim.control.seedBrand({ name: 'Acme Coffee', status: 'ready' });
  await f.sim.control.setCredits(null, { balance: 17 });
  const sync = await runCli(['sync', '--once', '--json'], env(), KEY);
  expect(sync.stderr).toBe('');
  expect(sync.code).toBe(0);
  const report = JSON.parse(sync.stdout);
  expect(report.ok).toBe(true);
  expect(report.failures).toEqual([]);
  expect(await readdir(path.join(f.dir, 'root'))).toContain('Acme Coffee');

  await f.sim.close();
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
  // The fixture closes its simulator after each test: hand it a live one again.
  f.sim = await startSimulator({ apiKeys: [KEY] });
});

test('sync --once on a banned account exits 1 with the service code, never the key', async () => {
  await f.sim.control.ban(KEY);
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

test('counts agree with their nouns: 1 item, 1 file', async () => {
  const brand = await f.sim.control.seedBrand({ name: 'Solo', status: 'ready', withExport: true });
  f.sim.control.seedLibrary(brand.id, { items: [{ type: 'image' }] });
  const sync = await runCli(['sync', '--once'], env(), KEY);
  expect(sync.code).toBe(0);
  expect(sync.stdout + sync.stderr).not.toMatch(/\b1 (items|files|brands|credits)\b/);
  const status = await runCli(['status'], env(), KEY);
  expect(status.stdout).toMatch(/Solo\s+ready\s+Solo\s+1 item,/);
  expect(status.stdout).not.toMatch(/\b1 (items|files|brands)\b/);
  const library = await runCli(['library', 'list', 'Solo'], env(), KEY);
  expect(library.stdout).not.toMatch(/\b1 (items|matches)\b/);
});

test('sync --once with the service unreachable says so first, and ends in seconds, not after a long wait', async () => {
  const down = { BRAND_SYNC_BASE_URL: 'http://127.0.0.1:9/v1' };
  const human = await runCli(['sync', '--once'], env(down), KEY);
  expect(human.code).toBe(1);
  const lines = (human.stdout + human.stderr).trim().split('\n');
  expect(lines[0]).toMatch(/^Stopped: NETWORK_ERROR: the service is unreachable/);
  expect(human.stdout + human.stderr).not.toMatch(/nothing to do/);
  const json = await runCli(['sync', '--once', '--json'], env(down), KEY);
  const report = JSON.parse(json.stdout);
  expect(report.halted).toMatchObject({ code: 'NETWORK_ERROR' });
  // Not the 15 s grace on top of a long backoff (20 s before): the few quick tries and 1 s.
  expect(Date.parse(report.finishedAt) - Date.parse(report.startedAt)).toBeLessThan(10_000);
});

// The build the bin runs is one bundle of the command line (bin/verified-build.js): this
// builds the real project into a temp dir and runs its bin from there, so that what a bundle
// can break (the hasher's worker found beside it, native modules outside it, chunks loaded on
// demand) is seen working, not assumed.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { build, entryToRun } from '../../bin/verified-build.js';
import { makeGif, makePng } from '../folder-parts/fixtures.ts';
import { sha256, waitFor } from '../folder-sync/harness.ts';
import { useCliFixture } from '../support/cli-fixture.ts';
import { runCli, whileRunning } from '../support/run-cli.ts';

const KEY = 'sk-bundle-cli-0123456789';
const f = useCliFixture(KEY);
let out = '';

beforeAll(async () => {
  out = await mkdtemp(path.join(os.tmpdir(), 'brand-sync-bundle-'));
  await build(out);
}, 120_000);
afterAll(() => rm(out, { recursive: true, force: true }));

const env = (extra: Record<string, string | undefined> = {}) =>
  f.env({ BRAND_SYNC_BUILD_DIR: out, ...extra });

test('the build is a bundle: one CLI module, its worker beside it, no loose sources', async () => {
  expect(entryToRun({ BRAND_SYNC_BUILD_DIR: out })).toMatchObject({ from: 'build' });
  const cli = await readdir(path.join(out, 'cli'));
  expect(cli).toContain('brand-sync.js');
  expect(cli).toContain('hash-worker.js');
  // The engine's modules are inside the bundle, not files of their own.
  expect(cli.some((name) => name.startsWith('job-queue'))).toBe(false);
  expect(existsSync(path.join(out, 'cli', 'main.js'))).toBe(false);
});

test('sync --once from the bundle hashes, judges and uploads like the sources', async () => {
  const brand = await f.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
  const png = makePng({ seed: 11 });
  await f.put('Acme/a.png', png);
  await f.put('Acme/b.png', makeGif());
  const sync = await runCli(['sync', '--once'], env(), KEY);
  expect(sync.stderr).toBe('');
  expect(sync.code).toBe(0);
  expect(sync.stdout).toMatch(/Files: 1 uploaded, 1 skipped\./);
  expect(sync.stdout).toMatch(/Skipped Acme\/b\.png: GIF is not accepted/);
  expect(f.sim.control.uploads(brand.id).map((u) => u.sha256)).toEqual([sha256(png)]);
  const help = await runCli(['--help'], env(), KEY);
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/Commands:[\s\S]*sync[\s\S]*run/);
}, 60_000);

test('run from the bundle uploads a dropped file and stops cleanly on SIGTERM', async () => {
  const brand = await f.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
  const run = await whileRunning(env(), async () => {
    const bytes = makePng({ seed: 12 });
    await f.put('Acme/dropped.png', bytes);
    await waitFor('the upload', () =>
      f.sim.control.uploads(brand.id).some((u) => u.sha256 === sha256(bytes)),
    );
  });
  expect(run.code).toBe(0);
  expect(run.stderr).toMatch(/Stopped\./);
  expect(run.stderr).not.toContain(KEY);
}, 60_000);

// The command line of the folder sync as the real bin: `files` (from the store, offline,
// every file with its state and reason) and `run` (watches until SIGTERM, then a clean stop).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { useCliFixture } from '../support/cli-fixture.ts';
import { runCli, whileRunning } from '../support/run-cli.ts';
import { makeGif, makePng } from '../folders/fixtures.ts';
import { sha256, waitFor } from './harness.ts';

const KEY = 'sk-folder-cli-0123456789';
const f = useCliFixture(KEY);
const env = f.env;

test('sync --once prints what was uploaded and skipped; files lists every file with its state and reason', async () => {
  const brand = await f.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
  await f.put('Acme/a.png', makePng({ seed: 1 }));
  await f.put('Acme/b.png', makeGif());
  const sync = await runCli(['sync', '--once'], env(), KEY);
  expect(sync.stderr).toBe('');
  expect(sync.code).toBe(0);
  expect(sync.stdout).toMatch(/Files: 1 uploaded, 1 skipped\./);
  expect(sync.stdout).toMatch(/Uploaded Acme\/a\.png/);
  expect(sync.stdout).toMatch(/Skipped Acme\/b\.png: GIF is not accepted: PNG, JPEG, WebP or AVIF/);

  // Offline, without a key: from the store.
  const offline = env({ BRAND_SYNC_API_KEY: undefined, BRAND_SYNC_BASE_URL: undefined });
  const all = await runCli(['files', '--json'], offline, KEY);
  expect(all.code).toBe(0);
  const doc = JSON.parse(all.stdout);
  expect(doc.files.map((f: { path: string; state: string }) => [f.path, f.state])).toEqual([
    ['a.png', 'uploaded'],
    ['b.png', 'skipped'],
  ]);
  expect(doc.files[0]).toMatchObject({ brandId: brand.id, folder: 'Acme', existing: false });
  expect(doc.files[1]).toMatchObject({
    code: 'UNSUPPORTED_FORMAT',
    reason: 'GIF is not accepted: PNG, JPEG, WebP or AVIF',
  });
  expect(doc.counts).toMatchObject({ uploaded: 1, skipped: 1 });

  const skipped = await runCli(['files', 'acme', '--state', 'skipped'], offline, KEY);
  expect(skipped.code).toBe(0);
  expect(skipped.stdout).toMatch(/Acme\/b\.png\s+skipped\s+GIF is not accepted/);
  expect(skipped.stdout).not.toMatch(/a\.png/);
  const byId = await runCli(['files', brand.id, '--json'], offline, KEY);
  expect(JSON.parse(byId.stdout).brand).toEqual({ id: brand.id, name: 'Acme', folder: 'Acme' });

  const badState = await runCli(['files', '--state', 'lost'], offline, KEY);
  expect(badState.code).toBe(2);
  expect(badState.stderr).toMatch(
    /--state must be one of waiting, uploading, uploaded, skipped, failed, deleted/,
  );
  const badBrand = await runCli(['files', 'Nope'], offline, KEY);
  expect(badBrand.code).toBe(2);
  expect(badBrand.stderr).toMatch(/no brand has the ID, folder or name "Nope"/);
}, 60_000);

test('run uploads what is dropped while it watches, and stops cleanly on SIGTERM', async () => {
  const brand = await f.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
  const run = await whileRunning(env(), async () => {
    await waitFor('the brand folder', () => existsSync(path.join(f.dir, 'root', 'Acme')));
    const bytes = makePng({ seed: 5 });
    await f.put('Acme/dropped.png', bytes);
    await waitFor('the upload', () =>
      f.sim.control.uploads(brand.id).some((u) => u.sha256 === sha256(bytes)),
    );
  });
  expect(run.code).toBe(0);
  expect(run.stderr).toMatch(/Stopped\./);
  expect(run.stderr).not.toContain(KEY);
  const files = await runCli(['files', '--json'], env(), KEY);
  expect(JSON.parse(files.stdout).files).toMatchObject([
    { path: 'dropped.png', state: 'uploaded' },
  ]);
}, 60_000);

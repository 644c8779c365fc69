// The command line of the folder sync as the real bin: `files` (from the store, offline,
// every file with its state and reason) and `run` (watches until SIGTERM, then a clean stop).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { useCliFixture } from '../support/cli-fixture.ts';
import { runCli, whileRunning } from '../support/run-cli.ts';
import { makeGif, makePng } from '../folder-parts/fixtures.ts';
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

test('files says the service asked us to wait until a time, and that a file a stopped run left half-sent will be sent again', async () => {
  const brand = await f.sim.control.seedBrand({ name: 'Waits', status: 'ready' });
  f.sim.control.setFaults('POST /v1/images/uploads/file:429=1,retry-after=900');
  let waiting = '';
  const run = await whileRunning(env(), async () => {
    await waitFor('the brand folder', () => existsSync(path.join(f.dir, 'root', 'Waits')));
    await f.put('Waits/held.png', makePng({ seed: 41 }));
    for (let i = 0; i < 40 && !/wait until \d\d:\d\d/.test(waiting); i++) {
      waiting = (await runCli(['files', 'Waits'], env(), KEY)).stdout;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  f.sim.control.clearFaults();
  expect(run.code).toBe(0);
  const line = waiting.split('\n').find((l) => l.includes('held.png')) ?? waiting;
  expect(line).toMatch(/waiting: the service asked us to wait until \d\d:\d\d/);
  expect(line).not.toMatch(/sent 0\.0 MB/);

  // A run stopped while a file was being sent (a crash keeps the row "uploading").
  const { openStore } = await import('../../main/engine/store/index.ts');
  const store = openStore({ dataDir: path.join(f.dir, 'data') });
  try {
    const row = store.files.getByPath(brand.id, 'held.png');
    expect(row).toBeDefined();
    store.files.setState(row!.id, 'uploading', { bytesSent: row!.size });
  } finally {
    store.close();
  }
  const after = await runCli(['files', 'Waits'], env(), KEY);
  expect(after.stdout).toMatch(
    /held\.png\s+uploading\s+interrupted after 0\.0 MB of 0\.0 MB: it will be sent again/,
  );
}, 60_000);

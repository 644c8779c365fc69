// The running engine lists brands on a timer: a brand created on the service after start
// gets its folder without a restart, while folders already known are not rescanned (the
// watcher covers them, and an idle engine stays idle).
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { startSimulator, type Simulator } from '../../simulator/index.ts';
import { createApiClient } from '../../main/engine/api/index.ts';
import { brandRefreshIntervalSetting, Engine } from '../../main/engine/core/engine.ts';
import { defaultFeatures } from '../../main/engine/core/features.ts';
import { SCAN_KIND } from '../../main/engine/folder-sync/file-keys.ts';

let sim: Simulator;
let dir: string;
let engine: Engine | undefined;

beforeEach(async () => {
  sim = await startSimulator({ rateLimit: false });
  dir = await mkdtemp(path.join(os.tmpdir(), 'engine-periodic-'));
});
afterEach(async () => {
  vi.useRealTimers();
  await engine?.close();
  engine = undefined;
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

test('a periodic listing brings a new brand and rescans no known folder', async () => {
  await sim.control.seedBrand({ name: 'First', status: 'analyzing' });
  // Only the interval timers are faked: the queue, HTTP and file system run for real.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  engine = Engine.open({
    dataDir: path.join(dir, 'data'),
    root: path.join(dir, 'root'),
    client: createApiClient({
      baseUrl: sim.baseUrl,
      credentials: { kind: 'api-key', secret: sim.apiKey },
    }),
    features: defaultFeatures,
  });
  const scans: string[] = [];
  engine.queue.events.on('job:queued', ({ job }) => {
    if (job.kind === SCAN_KIND) scans.push(job.brandId ?? '');
  });
  await engine.start();
  const root = path.join(dir, 'root');
  await until(() => existsSync(path.join(root, 'First')), 'the first brand folder');
  await engine.queue.whenSettled();
  expect(scans).toHaveLength(1);

  const second = await sim.control.seedBrand({ name: 'Second', status: 'analyzing' });
  vi.advanceTimersByTime(engine.store.settings.read(brandRefreshIntervalSetting));
  await until(() => existsSync(path.join(root, 'Second')), 'the new brand folder');
  await engine.queue.whenSettled();
  expect(scans.slice(1)).toEqual([second.id]);
});

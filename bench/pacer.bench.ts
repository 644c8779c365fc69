// 300 files dropped into one brand folder, uploaded by a sync pass against the simulator
// limiting the key to 120 requests a minute: how many requests the service refused (429)
// and the total time, paced (the client as it ships) and unpaced (only the Retry-After gate).
// Target (issue 17): at most 3 rejections, at most 10% slower than unpaced (1 and ~2% here).
// The simulator's window and the client's clock run on the same accelerated clock, so the
// figures are in simulated seconds, as if at real speed. Knobs: PACER_BENCH_FILES (300),
// PACER_BENCH_SPEED (10: ten simulated seconds per real second).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApiClient, RateGate, scaledClock } from '../main/engine/api/index.ts';
import { Engine } from '../main/engine/engine.ts';
import { folderSyncFeature } from '../main/engine/folder-sync/folder-sync-feature.ts';
import { DEFAULT_STABILITY_WINDOW_MS } from '../main/engine/folders/stability.ts';
import { startSimulator } from '../simulator/index.ts';
import { makePng } from '../test/folders/fixtures.ts';
import { report } from './report.ts';

const KEY = 'sk-bench-pacer-0000000000';
const FILES = Number(process.env.PACER_BENCH_FILES ?? 300);
const SPEED = Number(process.env.PACER_BENCH_SPEED ?? 10);
const PER_MINUTE = 120;

interface Run {
  rejected: number;
  requests: number;
  seconds: number;
  ok: boolean;
}

/** One sync pass of FILES dropped files against a fresh simulator limited to PER_MINUTE. */
async function run(pace: boolean): Promise<Run> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'bench-pacer-'));
  const sim = await startSimulator({
    apiKeys: [KEY],
    speed: SPEED,
    rateLimit: { max: PER_MINUTE, windowMs: 60_000, clock: 'simulated' },
  });
  try {
    await sim.control.seedBrand({ name: 'Pacer', status: 'ready' });
    const folder = path.join(work, 'root', 'Pacer');
    await mkdir(folder, { recursive: true });
    for (let i = 0; i < FILES; i++) {
      const bytes = makePng({ seed: i % 256, width: 2 + Math.floor(i / 256), height: 3 });
      await writeFile(path.join(folder, `p${i}.png`), bytes);
    }
    await new Promise((r) => setTimeout(r, DEFAULT_STABILITY_WINDOW_MS)); // the files are still
    const clock = scaledClock(SPEED);
    const engine = Engine.open({
      dataDir: path.join(work, 'data'),
      root: path.join(work, 'root'),
      client: createApiClient({
        baseUrl: sim.baseUrl,
        credentials: { kind: 'api-key', secret: KEY },
        clock,
        rateGate: new RateGate(clock),
        pace,
      }),
      features: [folderSyncFeature()],
    });
    const start = clock.now();
    let ok: boolean;
    try {
      ok = (await engine.syncOnce()).ok;
    } finally {
      await engine.close();
    }
    const seconds = (clock.now() - start) / 1000;
    const log = sim.control.log({});
    const rejected = log.filter((e) => e.status === 429).length;
    return { rejected, requests: log.length, seconds: Math.round(seconds * 10) / 10, ok };
  } finally {
    await sim.close();
    await rm(work, { recursive: true, force: true });
  }
}

const paced = await run(true);
const unpaced = await run(false);
report('pacer', {
  files: FILES,
  perMinute: PER_MINUTE,
  speed: SPEED,
  paced: { ...paced },
  unpaced: { ...unpaced },
  timeVersusUnpacedPercent:
    Math.round(((paced.seconds - unpaced.seconds) / unpaced.seconds) * 1000) / 10,
  targets: 'paced.rejected <= 3, timeVersusUnpacedPercent <= 10',
});

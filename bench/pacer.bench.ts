// 300 files dropped into one brand folder, uploaded by a sync pass against the simulator
// limiting the key to 120 requests a minute: how many requests the service refused (429)
// and the total time, next to the least time the limit allows for the requests made.
// Target (issue 17): at most 3 rejections, at most 10% slower than that least time.
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
    await writeFile(
      path.join(folder, `p${i}.png`),
      makePng({ seed: i % 256, width: 2 + Math.floor(i / 256), height: 3 }),
    );
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
    }),
    features: [folderSyncFeature()],
  });
  const start = clock.now();
  let pass;
  try {
    pass = await engine.syncOnce();
  } finally {
    await engine.close();
  }
  const totalS = (clock.now() - start) / 1000;
  const log = sim.control.log({});
  const rejected = log.filter((e) => e.status === 429).length;
  const served = log.length - rejected;
  // A sliding window lets the first minute's worth through at once; the rest waits for it.
  const leastS = (Math.max(0, served - PER_MINUTE) / PER_MINUTE) * 60;
  report('pacer', {
    files: FILES,
    ok: pass.ok,
    requests: log.length,
    rejected,
    totalSeconds: Math.round(totalS * 10) / 10,
    leastSecondsAtTheLimit: Math.round(leastS * 10) / 10,
    slowerThanLeastPercent: Math.round(((totalS - leastS) / leastS) * 1000) / 10,
    speed: SPEED,
  });
} finally {
  await sim.close();
  await rm(work, { recursive: true, force: true });
}

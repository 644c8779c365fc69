// The engine with the export sync against the simulator over real HTTP. The client's clock
// is the simulator's manual clock, and a client wait moves it: a poll interval or a backoff
// passes at once in simulated time, and never as a real sleep.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startSimulator } from '../../simulator/index.ts';
import type { Simulator, SimulatorOptions } from '../../simulator/index.ts';
import { createApiClient, RateGate } from '../../main/engine/api/index.ts';
import type { ApiClient, Clock } from '../../main/engine/api/index.ts';
import { abortedError } from '../../main/engine/api/clock.ts';
import { Engine, type FeatureFactory } from '../../main/engine/engine.ts';
import { exportSyncFeature } from '../../main/engine/export-sync/index.ts';
import type { ExportSyncOptions } from '../../main/engine/export-sync/index.ts';
import { brandSkillsFeature } from '../../main/engine/brand-skills/index.ts';

export interface Harness {
  sim: Simulator;
  key: string;
  client: ApiClient;
  dir: string;
  root: string;
  dataDir: string;
  /** Opens (or returns the open) engine with the export sync and beta Brand Skills. */
  open(options?: { exportSync?: ExportSyncOptions; baseUrl?: string }): Engine;
  /** Closes the open engine (a restart is close, then open). */
  closeEngine(): Promise<void>;
  close(): Promise<void>;
}

export function linkedClock(sim: Simulator): Clock {
  return {
    now: () => sim.control.clock.now(),
    async sleep(ms, signal) {
      if (signal?.aborted) throw abortedError('wait');
      await sim.control.advance(Math.max(0, ms));
      if (signal?.aborted) throw abortedError('wait');
    },
  };
}

export async function startHarness(options: SimulatorOptions = {}): Promise<Harness> {
  const key = `sk-test-${randomBytes(12).toString('hex')}`;
  const sim = await startSimulator({
    apiKeys: [key],
    manualClock: true,
    rateLimit: false,
    ...options,
  });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'export-sync-'));
  const root = path.join(dir, 'root');
  const dataDir = path.join(dir, 'data');
  const clientFor = (baseUrl: string): ApiClient =>
    createApiClient({
      baseUrl,
      credentials: { kind: 'api-key', secret: key },
      retry: { limit: 2, baseDelayMs: 5, maxDelayMs: 20 },
      rateGate: new RateGate(),
      clock: linkedClock(sim),
      timeoutMs: 10_000,
    });
  const client = clientFor(sim.baseUrl);
  let engine: Engine | undefined;
  const closeEngine = async (): Promise<void> => {
    await engine?.close();
    engine = undefined;
  };
  return {
    sim,
    key,
    client,
    dir,
    root,
    dataDir,
    open(opts = {}) {
      if (engine) return engine;
      const features: FeatureFactory[] = [exportSyncFeature(opts.exportSync), brandSkillsFeature];
      engine = Engine.open({
        dataDir,
        root,
        client: opts.baseUrl ? clientFor(opts.baseUrl) : client,
        queue: { backoff: { baseMs: 5, capMs: 20 } },
        features,
      });
      return engine;
    },
    closeEngine,
    async close() {
      await closeEngine();
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Download requests the simulator answered (exports and beta ZIPs are files under /files/). */
export function downloads(sim: Simulator): number {
  return sim.control.log({ method: 'GET' }).filter((e) => e.path.startsWith('/files/')).length;
}

export function requests(sim: Simulator, route: string): number {
  return sim.control.log({ route }).length;
}

/** Files left in the data dir's download folder (a finished job leaves none). */
export async function leftoverDownloads(dataDir: string): Promise<string[]> {
  return readdir(path.join(dataDir, 'skill-downloads')).catch(() => []);
}

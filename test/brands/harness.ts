// The engine (brand creation, Brand Edits, export sync) against the simulator over real
// HTTP, in process. The simulator runs fast (speed) unless a test needs time to stand
// still (manual clock: a brand stays analyzing until the test advances it).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startSimulator } from '../../simulator/index.ts';
import type { Simulator, SimulatorOptions } from '../../simulator/index.ts';
import { createApiClient, RateGate } from '../../main/engine/api/index.ts';
import type { ApiClient } from '../../main/engine/api/index.ts';
import { brandCreationFeature } from '../../main/engine/brands/index.ts';
import { brandEditsFeature } from '../../main/engine/edits/index.ts';
import { Engine, type FeatureFactory } from '../../main/engine/engine.ts';
import { exportSyncFeature } from '../../main/engine/export-sync/index.ts';

export interface Harness {
  sim: Simulator;
  key: string;
  client: ApiClient;
  dir: string;
  root: string;
  dataDir: string;
  /** Opens (or returns the open) engine. */
  open(features?: readonly FeatureFactory[]): Engine;
  /** Closes the open engine (a restart is close, then open). */
  closeEngine(): Promise<void>;
  close(): Promise<void>;
}

export const defaultTestFeatures: readonly FeatureFactory[] = [
  exportSyncFeature({ pollIntervalMs: 5 }),
  brandEditsFeature,
  brandCreationFeature,
];

export async function startHarness(options: SimulatorOptions = {}): Promise<Harness> {
  const key = `sk-test-${randomBytes(12).toString('hex')}`;
  const sim = await startSimulator({ apiKeys: [key], rateLimit: false, speed: 1000, ...options });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'brand-sync-brands-'));
  const root = path.join(dir, 'root');
  const dataDir = path.join(dir, 'data');
  const client = createApiClient({
    baseUrl: sim.baseUrl,
    credentials: { kind: 'api-key', secret: key },
    retry: { limit: 1, baseDelayMs: 5, maxDelayMs: 20 },
    rateGate: new RateGate(),
    timeoutMs: 10_000,
  });
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
    open(features = defaultTestFeatures) {
      engine ??= Engine.open({
        dataDir,
        root,
        client,
        queue: {
          backoff: { baseMs: 5, capMs: 20 },
          offlineProbe: { baseMs: 5, capMs: 20 },
        },
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

/** Resolves when `check` holds, polling every few milliseconds (fails after `ms`). */
export async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

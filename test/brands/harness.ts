// The engine (brand creation, Brand Edits, export sync) against the simulator over real
// HTTP, in process. The simulator runs fast (speed) unless a test needs time to stand
// still (manual clock: a brand stays analyzing until the test advances it).
import type { Simulator, SimulatorOptions } from '../../simulator/index.ts';
import { RateGate } from '../../main/engine/api/index.ts';
import type { ApiClient } from '../../main/engine/api/index.ts';
import { brandCreationFeature } from '../../main/engine/brands/index.ts';
import { brandEditsFeature } from '../../main/engine/edits/index.ts';
import type { Engine, FeatureFactory } from '../../main/engine/core/engine.ts';
import { exportSyncFeature } from '../../main/engine/export-sync/index.ts';
import { startEngineHarness } from '../support/engine-harness.ts';

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
  const h = await startEngineHarness({
    prefix: 'brand-sync-brands-',
    simulator: { speed: 1000, ...options },
  });
  const client = h.client({
    retry: { limit: 1, baseDelayMs: 5, maxDelayMs: 20 },
    rateGate: new RateGate(),
    timeoutMs: 10_000,
  });
  return {
    sim: h.sim,
    key: h.key,
    client,
    dir: h.dir,
    root: h.root,
    dataDir: h.dataDir,
    open(features = defaultTestFeatures) {
      return (
        h.engine ??
        h.openEngine({
          client,
          queue: {
            backoff: { baseMs: 5, capMs: 20 },
            offlineProbe: { baseMs: 5, capMs: 20 },
          },
          features,
        })
      );
    },
    closeEngine: () => h.closeEngine(),
    close: () => h.close(),
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

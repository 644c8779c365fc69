// The engine with the export sync against the simulator over real HTTP. The client's clock
// is the simulator's manual clock, and a client wait moves it: a poll interval or a backoff
// passes at once in simulated time, and never as a real sleep.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Simulator, SimulatorOptions } from '../../simulator/index.ts';
import { RateGate } from '../../main/engine/api/index.ts';
import type { ApiClient, Clock } from '../../main/engine/api/index.ts';
import { abortedError } from '../../main/engine/api/clock.ts';
import type { Engine, FeatureFactory } from '../../main/engine/core/engine.ts';
import { exportSyncFeature } from '../../main/engine/export-sync/index.ts';
import type { ExportSyncOptions } from '../../main/engine/export-sync/index.ts';
import { brandSkillsFeature } from '../../main/engine/brand-skills/index.ts';
import { startEngineHarness } from '../support/engine-harness.ts';

export interface Harness {
  sim: Simulator;
  key: string;
  client: ApiClient;
  dir: string;
  root: string;
  dataDir: string;
  /** Opens (or returns the open) engine with the export sync and beta Brand Skills. */
  open(options?: { exportSync?: ExportSyncOptions; baseUrl?: string }): Engine;
  /**
   * Holds the engine's next client wait (a poll interval, a backoff) until `release` is
   * called; `reached` resolves once a wait is being held.
   */
  holdNextWait(): { reached: Promise<void>; release: () => void };
  /** Closes the open engine (a restart is close, then open). */
  closeEngine(): Promise<void>;
  close(): Promise<void>;
}

export function linkedClock(sim: Simulator, gate?: () => Promise<void>): Clock {
  return {
    now: () => sim.control.clock.now(),
    async sleep(ms, signal) {
      await gate?.();
      if (signal?.aborted) throw abortedError('wait');
      await sim.control.advance(Math.max(0, ms));
      if (signal?.aborted) throw abortedError('wait');
    },
  };
}

export async function startHarness(options: SimulatorOptions = {}): Promise<Harness> {
  const h = await startEngineHarness({
    prefix: 'export-sync-',
    simulator: { manualClock: true, ...options },
  });
  const sim = h.sim;
  let hold: (() => Promise<void>) | undefined;
  const gate = async (): Promise<void> => {
    const held = hold;
    hold = undefined;
    await held?.();
  };
  // The engine's client waits at the gate; the test's own client never does.
  const clientFor = (baseUrl: string, gated = true): ApiClient =>
    h.client({
      baseUrl,
      retry: { limit: 2, baseDelayMs: 5, maxDelayMs: 20 },
      rateGate: new RateGate(),
      clock: linkedClock(sim, gated ? gate : undefined),
      timeoutMs: 10_000,
    });
  return {
    sim,
    key: h.key,
    client: clientFor(sim.baseUrl, false),
    dir: h.dir,
    root: h.root,
    dataDir: h.dataDir,
    open(opts = {}) {
      if (h.engine) return h.engine;
      const features: FeatureFactory[] = [exportSyncFeature(opts.exportSync), brandSkillsFeature];
      return h.openEngine({
        client: clientFor(opts.baseUrl ?? sim.baseUrl),
        queue: { backoff: { baseMs: 5, capMs: 20 } },
        features,
      });
    },
    holdNextWait() {
      let reachedResolve = (): void => {};
      let release = (): void => {};
      const reached = new Promise<void>((resolve) => (reachedResolve = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      hold = () => {
        reachedResolve();
        return released;
      };
      return { reached, release };
    },
    closeEngine: () => h.closeEngine(),
    close: () => h.close(),
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

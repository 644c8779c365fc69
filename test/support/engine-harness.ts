// What an engine test runs against, built in one place: the simulator over real HTTP with a
// key of its own, a temp folder holding the sync root and the data dir, clients of the
// simulator, and an engine opened and closed on demand (a restart is close, then open).
// The harnesses of brands/, export-sync/, folder-sync/ and bridge/ add what is theirs.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startSimulator } from '../../simulator/index.ts';
import type { Simulator, SimulatorOptions } from '../../simulator/index.ts';
import { createApiClient } from '../../main/engine/api/index.ts';
import type { ApiClient, ApiClientOptions } from '../../main/engine/api/index.ts';
import { Engine, type EngineOptions } from '../../main/engine/core/engine.ts';

export interface EngineHarnessOptions {
  /** The start of the temp folder's name (says which tests left it, should one stay). */
  prefix: string;
  /** The simulator's options, over the defaults: the harness's key, no rate limit. */
  simulator?: SimulatorOptions;
  /** The API key the simulator accepts; a fresh one when not given. */
  key?: string;
  /** The sync root, when it must be elsewhere (on another disk); left in place at close. */
  root?: string;
}

export interface EngineHarness {
  sim: Simulator;
  key: string;
  /** The temp folder, removed at close. */
  dir: string;
  root: string;
  dataDir: string;
  /** The open engine, if any. */
  readonly engine: Engine | undefined;
  /** A client of the simulator with the harness's key; `options` go over that. */
  client(options?: Partial<ApiClientOptions>): ApiClient;
  /** Opens an engine on the harness's folders; one at a time. */
  openEngine(options: Omit<EngineOptions, 'dataDir' | 'root'>): Engine;
  /** Closes the open engine, if any; the data dir stays. */
  closeEngine(): Promise<void>;
  /** Runs `fn` at close, after the engine closes and before the simulator stops. */
  onClose(fn: () => Promise<void>): void;
  /** Closes the engine, then what `onClose` added (last first), the simulator, the temp folder. */
  close(): Promise<void>;
}

export async function startEngineHarness(options: EngineHarnessOptions): Promise<EngineHarness> {
  const key = options.key ?? `sk-test-${randomBytes(12).toString('hex')}`;
  const sim = await startSimulator({ apiKeys: [key], rateLimit: false, ...options.simulator });
  const dir = await mkdtemp(path.join(os.tmpdir(), options.prefix)).catch(async (error) => {
    await sim.close();
    throw error;
  });
  const root = options.root ?? path.join(dir, 'root');
  const dataDir = path.join(dir, 'data');
  const closers: (() => Promise<void>)[] = [];
  let engine: Engine | undefined;
  const closeEngine = async (): Promise<void> => {
    await engine?.close();
    engine = undefined;
  };
  return {
    sim,
    key,
    dir,
    root,
    dataDir,
    get engine() {
      return engine;
    },
    client(clientOptions = {}) {
      return createApiClient({
        baseUrl: sim.baseUrl,
        credentials: { kind: 'api-key', secret: key },
        ...clientOptions,
      });
    },
    openEngine(engineOptions) {
      if (engine) throw new Error('the engine is open already');
      engine = Engine.open({ dataDir, root, ...engineOptions });
      return engine;
    },
    closeEngine,
    onClose(fn) {
      closers.push(fn);
    },
    async close() {
      await closeEngine();
      for (const fn of closers.reverse()) await fn();
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

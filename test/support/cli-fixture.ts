// The setting most CLI tests share: a simulator accepting one key, a temp dir holding the
// data dir and the sync root, and the environment that points the bin at all three.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../simulator/index.ts';

export interface CliFixture {
  readonly key: string;
  /** This test's simulator (a test may close it and start another). */
  sim: Simulator;
  /** This test's temp dir: `data/` is the data dir, `root/` the sync root. */
  dir: string;
  /** The bin's environment; `extra` adds or (with undefined) removes variables. */
  env(extra?: Record<string, string | undefined>): Record<string, string | undefined>;
  /** Writes a file under the sync root (`Brand/path`), making its folders. */
  put(rel: string, bytes: Buffer): Promise<void>;
}

/** Registers beforeEach/afterEach hooks that make a fresh simulator and temp dir per test. */
export function useCliFixture(key: string, options: SimulatorOptions = {}): CliFixture {
  const fixture: CliFixture = {
    key,
    sim: undefined as unknown as Simulator,
    dir: '',
    env(extra = {}) {
      return {
        HOME: fixture.dir,
        BRAND_SYNC_BASE_URL: fixture.sim.baseUrl,
        BRAND_SYNC_API_KEY: key,
        BRAND_SYNC_DATA_DIR: path.join(fixture.dir, 'data'),
        BRAND_SYNC_ROOT: path.join(fixture.dir, 'root'),
        ...extra,
      };
    },
    async put(rel, bytes) {
      const abs = path.join(fixture.dir, 'root', ...rel.split('/'));
      await mkdir(path.dirname(abs), { recursive: true });
      await writeFile(abs, bytes);
    },
  };
  beforeEach(async () => {
    fixture.sim = await startSimulator({
      speed: 1000,
      rateLimit: false,
      ...options,
      apiKeys: [key],
    });
    fixture.dir = await mkdtemp(path.join(os.tmpdir(), 'brand-sync-cli-'));
  });
  afterEach(async () => {
    await fixture.sim.close();
    await rm(fixture.dir, { recursive: true, force: true });
  });
  return fixture;
}

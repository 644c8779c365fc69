// The engine with the folder sync against the simulator over real HTTP, in a temp dir:
// what every folder-sync test starts from.
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Simulator, SimulatorOptions } from '../../simulator/index.ts';
import type { ApiClientOptions } from '../../main/engine/api/index.ts';
import type { Engine } from '../../main/engine/core/engine.ts';
import {
  FolderSync,
  folderSyncFeature,
  type FolderSyncOptions,
} from '../../main/engine/folder-sync/folder-sync-feature.ts';
import type { LocalFile } from '../../main/engine/store/index.ts';
import type { SyncReport } from '../../main/engine/core/sync-pass.ts';
import { startEngineHarness } from '../support/engine-harness.ts';

export interface Harness {
  sim: Simulator;
  dir: string;
  root: string;
  dataDir: string;
  readonly engine: Engine | undefined;
  /** Opens (or reopens) the engine with the folder sync only. */
  open(options?: FolderSyncOptions, client?: Partial<ApiClientOptions>): Engine;
  folders(): FolderSync;
  /** Closes the engine (if open); the data dir stays. */
  closeEngine(): Promise<void>;
  close(): Promise<void>;
  /** Writes a file (making its folders) under a brand folder; returns its sha256. */
  put(folder: string, relPath: string, bytes: Buffer): Promise<string>;
  file(brandId: string, relPath: string): LocalFile | undefined;
  /** sha256 → times the service received those bytes for the brand. */
  received(brandId: string): Map<string, number>;
}

export const FAST: FolderSyncOptions = {
  windowMs: 150,
  settleWaitMs: 20_000,
  goneDelayMs: 400,
  rescanDebounceMs: 200,
  hasherThreads: 1,
};

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

export async function harness(
  simOptions: SimulatorOptions = {},
  /** The sync root, when it must be elsewhere (on another disk); left in place at close. */
  rootDir?: string,
): Promise<Harness> {
  const base = await startEngineHarness({
    prefix: 'folder-sync-',
    simulator: { manualClock: true, ...simOptions },
    ...(rootDir === undefined ? {} : { root: rootDir }),
  });
  const { sim, root } = base;
  const h: Harness = {
    sim,
    dir: base.dir,
    root,
    dataDir: base.dataDir,
    get engine() {
      return base.engine;
    },
    open(options = {}, client = {}) {
      return base.openEngine({
        client: base.client({ retry: { limit: 2, baseDelayMs: 5, maxDelayMs: 20 }, ...client }),
        queue: { backoff: { baseMs: 5, capMs: 20 } },
        features: [folderSyncFeature({ ...FAST, ...options })],
      });
    },
    folders() {
      const feature = h.engine?.features.find((f) => f instanceof FolderSync);
      if (!(feature instanceof FolderSync)) throw new Error('no folder sync in the engine');
      return feature;
    },
    closeEngine: () => base.closeEngine(),
    close: () => base.close(),
    async put(folder, relPath, bytes) {
      const abs = path.join(root, folder, ...relPath.split('/'));
      await mkdir(path.dirname(abs), { recursive: true });
      await writeFile(abs, bytes);
      return sha256(bytes);
    },
    file(brandId, relPath) {
      return h.engine?.store.files.getByPath(brandId, relPath);
    },
    received(brandId) {
      return new Map(sim.control.uploads(brandId).map((u) => [u.sha256, u.received]));
    },
  };
  return h;
}

/** Polls until `condition` holds (bounded by the test's timeout); says what never happened. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>) {
  for (let i = 0; i < 3000; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

interface Entry {
  brandId: string;
  folder: string;
  path: string;
}
export interface FolderSection {
  summary: string[];
  uploaded: (Entry & { imageId: string | null; existing: boolean })[];
  alreadyOnService: (Entry & { imageId: string | null })[];
  skipped: (Entry & { code: string; reason: string })[];
  failed: (Entry & { code: string; reason: string; willRetry: boolean })[];
  deleted: (Entry & { message: string })[];
  logos: (Entry & { status: string | null })[];
  pending: number;
  truncated: boolean;
}

/** The folder sync's section of a sync report. */
export function folderSection(report: SyncReport): FolderSection {
  const section = report.sections.folders;
  if (section === undefined) throw new Error('the report has no folders section');
  return section as unknown as FolderSection;
}

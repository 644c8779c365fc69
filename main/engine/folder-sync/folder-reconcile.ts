// A full look at one brand folder: every file the scanner finds goes through the pipeline
// if it is new, changed or unfinished; every row whose file is no longer there is handled
// as gone (a move, or a local deletion the user is told about). Run at start-up, after each
// brand listing, every hour, and whenever the watcher may have missed something.
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { FileStat } from '../folder-parts/file-stat.ts';
import type { IgnoreRulesRegistry } from '../folder-parts/ignore-rules.ts';
import type { PathNormaliser } from '../folder-parts/path-normalise.ts';
import { type ScanIssue, scanRoot } from '../folder-parts/scanner.ts';
import type { LocalFile, Store } from '../store/index.ts';
import { pathKey } from '../store/index.ts';
import type { BrandDirs } from './brand-dirs.ts';
import type { FileNotices } from './file-notices.ts';
import type { FilePipeline, FileRef } from './file-pipeline.ts';

export interface ReconcileDeps {
  store: Store;
  pipeline: FilePipeline;
  brandDirs: BrandDirs;
  notices: FileNotices;
  normaliser: PathNormaliser;
  rules: IgnoreRulesRegistry;
}

export interface ReconcileOptions {
  signal?: AbortSignal;
  /**
   * How long the scan waits for one file to become complete before it moves on (it is
   * still taken once complete, by whoever runs the pipeline then).
   */
  settleWaitMs: number;
}

export interface BrandScanSummary {
  brandId: string;
  folder: string | null;
  /** Files found. */
  files: number;
  /** Files that went through the pipeline (new, changed or unfinished). */
  examined: number;
  /** Rows whose file is gone (deleted or moved). */
  gone: number;
  /** Files still incomplete when the scan stopped waiting for them. */
  unsettled: number;
  issues: number;
}

// Files in the pipeline at once from one scan: a tree of 100,000 new files is taken a
// slice at a time, never held whole.
const MAX_IN_FLIGHT = 64;

/** Issues that mean part of the folder was not seen: its rows are not taken as deleted. */
const PARTIAL: ReadonlySet<ScanIssue['code']> = new Set([
  'UNREADABLE_DIR',
  'UNREADABLE_ENTRY',
  'TOO_DEEP',
]);

export async function reconcileBrand(
  deps: ReconcileDeps,
  brandId: string,
  options: ReconcileOptions,
): Promise<BrandScanSummary> {
  const summary: BrandScanSummary = {
    brandId,
    folder: null,
    files: 0,
    examined: 0,
    gone: 0,
    unsettled: 0,
    issues: 0,
  };
  const folder = await deps.brandDirs.currentFolder(brandId);
  // No folder at all: the brand listing makes it again; its rows wait for that.
  if (folder === null) return summary;
  summary.folder = folder;
  const { pipeline, normaliser } = deps;
  // The ignore file may have changed with no watcher to say so (sync --once, a restart).
  await deps.rules.reload(folder);
  const found = new Set<string>();
  const unseen: string[] = []; // folders (relative) that could not be read
  let wholeBrandHeld = false;
  // Files in the pipeline from this scan, and the scan waiting for one of them to finish.
  let inFlight = 0;
  let wake: (() => void) | undefined;
  const take = (ref: FileRef, seen?: FileStat) => {
    summary.examined++;
    inFlight++;
    void withDeadline(pipeline.submit(ref, seen), options.settleWaitMs).then((outcome) => {
      if (outcome === 'late') summary.unsettled++;
      inFlight--;
      const resume = wake;
      wake = undefined;
      resume?.();
    });
  };
  const room = (limit: number) =>
    inFlight < limit ? Promise.resolve() : new Promise<void>((resolve) => (wake = resolve));

  for await (const item of scanRoot({
    normaliser,
    rules: deps.rules,
    brandDirs: [folder],
    ...(options.signal ? { signal: options.signal } : {}),
  })) {
    if (item.type === 'issue') {
      summary.issues++;
      if (item.code === 'IGNORE_FILE_UNUSABLE') wholeBrandHeld = true;
      const n = normaliser.normalise(item.absPath);
      const rel = n.ok ? n.relPath : '';
      if (PARTIAL.has(item.code)) unseen.push(rel);
      if (item.code === 'NAME_COLLISION') {
        // The scanner keeps the first name it lists; the pipeline keeps the NFC one.
        const s = await lstat(item.absPath).catch(() => undefined);
        if (
          n.ok &&
          s?.isFile() &&
          path.basename(item.absPath).normalize('NFC') === path.basename(item.absPath)
        ) {
          found.add(pathKey(rel));
          take({ brandId, folder, relPath: rel, absPath: item.absPath });
        }
        continue; // the pipeline tells the user, once
      }
      deps.notices.once(`scan:${item.code}:${item.absPath}`, {
        level: 'warn',
        code: item.code,
        brandId,
        message: `${folder}${rel ? `/${rel}` : ''}: ${item.message}`,
      });
      continue;
    }
    summary.files++;
    found.add(pathKey(item.relPath));
    const ref: FileRef = { brandId, folder, relPath: item.relPath, absPath: item.absPath };
    if (!pipeline.needsWork(ref, item.stat)) continue;
    take(ref, item.stat);
    while (inFlight >= MAX_IN_FLIGHT) await room(MAX_IN_FLIGHT);
  }
  while (inFlight > 0) await room(1);
  if (wholeBrandHeld || options.signal?.aborted || pipeline.closed) return summary;

  // Rows whose file the scan did not find.
  const under = (relPath: string) =>
    unseen.some((dir) => dir === '' || relPath === dir || relPath.startsWith(`${dir}/`));
  const rules = await deps.rules.rulesFor(folder);
  for (let afterId = 0; ;) {
    const page = deps.store.files.list({ brandId, afterId, limit: 5000 });
    for (const row of page) {
      if (row.state === 'deleted' || found.has(row.pathKey) || under(row.relPath)) continue;
      if (
        await handleMissing(deps, { brandId, folder, row, ignored: rules.ignores(row.relPath) })
      ) {
        summary.gone++;
      }
      if (pipeline.closed) return summary;
    }
    if (page.length < 5000) break;
    afterId = (page[page.length - 1] as LocalFile).id;
  }
  deps.notices.flush();
  return summary;
}

/** A row the scan did not find: gone, or present but no longer synced (ignored now). */
async function handleMissing(
  deps: ReconcileDeps,
  missing: { brandId: string; folder: string; row: LocalFile; ignored: boolean },
): Promise<boolean> {
  const { brandId, folder, row } = missing;
  const absPath = await deps.brandDirs.locate(folder, row.relPath);
  if (absPath !== null) {
    // Still there: a pattern of the ignore file now covers it; it leaves the index.
    if (missing.ignored) deps.store.files.remove(row.id);
    return false;
  }
  const ref: FileRef = {
    brandId,
    folder,
    relPath: row.relPath,
    absPath: path.join(deps.brandDirs.dirPath(folder), ...row.relPath.split('/')),
  };
  const outcome = await deps.pipeline.submit(ref);
  return outcome === 'gone' || outcome === 'moved';
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T | 'late'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('late'), ms);
    void promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve('late');
      },
    );
  });
}

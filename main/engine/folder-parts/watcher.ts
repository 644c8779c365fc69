// Watches the whole sync root with chokidar and hands the sync logic normalised events.
// Events are hints, not verdicts: whether a file is complete is the StabilityTracker's
// call (chokidar's awaitWriteFinish is off), and the start-up reconcile and the periodic
// rescan catch whatever a watcher can miss. When the OS refuses more watches, the folder
// concerned is polled instead, and the user is told which setting to raise.
import type { ChokidarOptions, FSWatcher } from 'chokidar';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { errnoCode } from './folder-errors.ts';
import { type FileStat, toFileStat } from './file-stat.ts';
import {
  type IgnoreFileStatus,
  type IgnoreRulesRegistry,
  isBuiltInIgnored,
  isIgnoreFile,
} from './ignore-rules.ts';
import type { NormalisedPath, PathNormaliser } from './path-normalise.ts';
import { type PolledChange, PollingFolder } from './polling-fallback.ts';
import type { ScanIssue } from './scanner.ts';

export const INOTIFY_WATCHES_SETTING = 'fs.inotify.max_user_watches';
export const DEFAULT_FALLBACK_INTERVAL_MS = 30_000;

export type WatchEvent =
  | { type: 'add' | 'change'; file: NormalisedPath; stat?: FileStat; source: 'watch' | 'poll' }
  | { type: 'unlink'; file: NormalisedPath; source: 'watch' | 'poll' }
  /** A folder appeared or went; relPath '' is a brand folder itself (run discovery). */
  | { type: 'addDir' | 'unlinkDir'; dir: NormalisedPath }
  /** A brand's .brandsyncignore changed and was reloaded: rescan that brand. */
  | { type: 'ignore-file-changed'; brandDir: string; status: IgnoreFileStatus }
  /**
   * The OS refused more watches: `brandDir` (null: the whole root) is polled every
   * `intervalMs` from now on. Reconcile that folder now: changes before the first poll
   * are not reported.
   */
  | {
      type: 'watch-limit';
      code: 'ENOSPC' | 'EMFILE';
      brandDir: string | null;
      folder: string;
      setting: string;
      intervalMs: number;
      message: string;
    }
  | { type: 'issue'; issue: ScanIssue }
  | { type: 'error'; code: string; message: string };

export type CreateWatcher = (root: string, options: ChokidarOptions) => FSWatcher;

export interface FolderWatcherOptions {
  normaliser: PathNormaliser;
  rules: IgnoreRulesRegistry;
  onEvent: (event: WatchEvent) => void;
  /** How often a folder is scanned once the OS refuses to watch it. */
  fallbackIntervalMs?: number;
  /** Poll everything from the start (network drives, where native events are unreliable). */
  usePolling?: boolean;
  /** For tests: a stand-in for chokidar.watch. */
  createWatcher?: CreateWatcher;
}

type ChokidarEvent = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';

export class FolderWatcher {
  readonly #opts: FolderWatcherOptions;
  readonly #fallbackMs: number;
  #watcher: FSWatcher | undefined;
  // Events are handled one after another, so that the order chokidar saw is kept even
  // when an ignore file has to be loaded first.
  #chain: Promise<void> = Promise.resolve();
  readonly #polling = new Map<string | null, PollingFolder>();
  #closed = false;

  constructor(opts: FolderWatcherOptions) {
    this.#opts = opts;
    this.#fallbackMs = opts.fallbackIntervalMs ?? DEFAULT_FALLBACK_INTERVAL_MS;
  }

  /** Folders polled instead of watched (null: the whole root). */
  get pollingFolders(): (string | null)[] {
    return [...this.#polling.keys()];
  }

  /** Starts watching; resolves once chokidar has its watches in place. */
  async start(): Promise<void> {
    const create = this.#opts.createWatcher ?? (await chokidarWatch());
    if (this.#closed) return;
    const watcher = create(this.#opts.normaliser.root, {
      ignoreInitial: true, // the start-up reconcile scans what exists
      followSymlinks: false, // never out of the root; inside it, targets are watched where they are
      alwaysStat: true,
      atomic: true,
      awaitWriteFinish: false, // stability.ts decides, with the readability check
      backend: this.#opts.usePolling ? 'polling' : 'auto',
      ignored: (p: string, stats?: Stats) => this.#ignoredByWatcher(p, stats),
    });
    this.#watcher = watcher;
    for (const type of ['add', 'change', 'unlink', 'addDir', 'unlinkDir'] as const) {
      watcher.on(type, (p: string, stats?: Stats) => this.#enqueue(type, p, stats));
    }
    watcher.on('error', (error: unknown) => this.#onError(error));
    return new Promise((resolve) => watcher.once('ready', () => resolve()));
  }

  /** Scans every polled folder now (or waits for the scan under way), reporting changes. */
  async pollNow(): Promise<void> {
    await Promise.all([...this.#polling.values()].map((poller) => poller.pollNow()));
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const poller of this.#polling.values()) poller.stop();
    this.#polling.clear();
    await this.#watcher?.close();
    await this.#chain;
  }

  /** Static filters only (chokidar keeps its verdicts): reserved areas and system files. */
  #ignoredByWatcher(p: string, stats?: Stats): boolean {
    const n = this.#opts.normaliser.normalise(p);
    if (!n.ok) return false;
    if (n.relPath === '') return n.brandDir.startsWith('.') || isBuiltInIgnored(n.brandDir, true);
    if (n.area === 'ignored-reserved') return true;
    if (isIgnoreFile(n.relPath)) return false;
    return isBuiltInIgnored(n.relPath, stats?.isDirectory() ?? false);
  }

  #enqueue(type: ChokidarEvent, p: string, stats?: Stats): void {
    this.#chain = this.#chain
      .then(() => this.#handle(type, p, stats))
      .catch((error: unknown) =>
        this.#emit({
          type: 'error',
          code: errnoCode(error) ?? 'WATCH_EVENT_FAILED',
          message: String(error),
        }),
      );
  }

  #emit(event: WatchEvent): void {
    if (!this.#closed) this.#opts.onEvent(event);
  }

  async #handle(type: ChokidarEvent, p: string, stats?: Stats): Promise<void> {
    const isDir = type === 'addDir' || type === 'unlinkDir';
    const n = this.#opts.normaliser.normalise(p, isDir);
    if (!n.ok) return;
    const { ok: _ok, ...file } = n;
    if (file.relPath === '') {
      if (type === 'unlinkDir') this.#opts.rules.forget(file.brandDir);
      if (isDir) this.#emit({ type, dir: file });
      return;
    }
    if (file.area === 'ignored-reserved') return;
    if (!isDir && isIgnoreFile(file.relPath)) {
      const status = await this.#opts.rules.reload(file.brandDir);
      this.#emit({ type: 'ignore-file-changed', brandDir: file.brandDir, status });
      return;
    }
    // A polled folder reports its own changes; late native events would double them.
    if (this.#polling.has(null) || this.#polling.has(file.brandDir)) return;
    const rules = await this.#opts.rules.rulesFor(file.brandDir);
    if (rules.ignores(file.relPath, isDir)) return;
    if (type === 'addDir' || type === 'unlinkDir') this.#emit({ type, dir: file });
    else if (type === 'unlink') this.#emit({ type, file, source: 'watch' });
    else this.#emit({ type, file, stat: stats && toFileStat(stats), source: 'watch' });
  }

  #onError(error: unknown): void {
    const code = errnoCode(error);
    if (code === 'ENOSPC' || code === 'EMFILE') {
      const at = (error as { path?: unknown }).path;
      this.#fallBackToPolling(code, typeof at === 'string' ? at : undefined);
      return;
    }
    this.#emit({
      type: 'error',
      code: code ?? 'WATCH_FAILED',
      message: error instanceof Error ? error.message : String(error),
    });
  }

  #fallBackToPolling(code: 'ENOSPC' | 'EMFILE', failedPath: string | undefined): void {
    if (this.#closed || this.#polling.has(null)) return;
    const n =
      failedPath === undefined ? undefined : this.#opts.normaliser.normalise(failedPath, true);
    const brandDir = n?.ok ? n.brandDir : null;
    if (this.#polling.has(brandDir)) return;
    const root = this.#opts.normaliser.root;
    const folder = brandDir === null ? root : path.join(root, brandDir);
    // Free the watches that folder still holds, for the folders that are watched fine.
    if (brandDir === null) void this.#watcher?.close();
    else this.#watcher?.unwatch(folder);
    const poller = new PollingFolder({
      normaliser: this.#opts.normaliser,
      rules: this.#opts.rules,
      brandDir,
      intervalMs: this.#fallbackMs,
      onChange: (change) => this.#emitPolled(change),
      onIssue: (issue) => this.#emit({ type: 'issue', issue }),
      onError: (e) =>
        this.#emit({ type: 'error', code: errnoCode(e) ?? 'POLL_FAILED', message: String(e) }),
    });
    this.#polling.set(brandDir, poller);
    poller.start();
    const seconds = Math.round(this.#fallbackMs / 1000);
    const what = brandDir === null ? 'the sync root' : `"${brandDir}"`;
    const cause =
      code === 'ENOSPC'
        ? 'The system limit on watched folders is reached (ENOSPC)'
        : 'The system limit on open files or watch instances is reached (EMFILE)';
    const fix =
      code === 'ENOSPC'
        ? `To watch it live again, raise ${INOTIFY_WATCHES_SETTING} (for example: sudo sysctl ${INOTIFY_WATCHES_SETTING}=524288, and the same line in /etc/sysctl.conf to keep it).`
        : `To watch it live again, raise fs.inotify.max_user_instances or the open-file limit (ulimit -n); ${INOTIFY_WATCHES_SETTING} may need raising too.`;
    this.#emit({
      type: 'watch-limit',
      code,
      brandDir,
      folder,
      setting: code === 'ENOSPC' ? INOTIFY_WATCHES_SETTING : 'fs.inotify.max_user_instances',
      intervalMs: this.#fallbackMs,
      message: `${cause}. Brand Sync now checks ${what} every ${seconds} s instead of watching it. ${fix}`,
    });
  }

  #emitPolled(change: PolledChange): void {
    if (change.type === 'unlink') this.#emit({ type: 'unlink', file: change.file, source: 'poll' });
    else this.#emit({ type: change.type, file: change.file, stat: change.stat, source: 'poll' });
  }
}

/** chokidar, loaded once a watch starts: `sync --once` never watches, and skips its loading. */
async function chokidarWatch(): Promise<CreateWatcher> {
  const { default: chokidar } = await import('chokidar');
  return (root, options) => chokidar.watch(root, options);
}

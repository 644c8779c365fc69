// `run`: the watcher's events, turned into the pipeline's work. Events are hints: a file
// added or changed goes through the pipeline (which waits until it is complete); a file
// unlinked is looked at again a little later, so that a move (unlink here, add there) or an
// editor's atomic save is seen whole before anything is called deleted. Folder-level events
// (a brand folder renamed, a folder moved in, an ignore file edited, the OS refusing more
// watches) ask for a rescan of the brand instead.
import type { IgnoreRulesRegistry } from '../folder-parts/ignore-rules.ts';
import type { NormalisedPath, PathNormaliser } from '../folder-parts/path-normalise.ts';
import { FolderWatcher, type WatchEvent } from '../folder-parts/watcher.ts';
import type { BrandDirs } from './brand-dirs.ts';
import type { FileNotices } from './file-notices.ts';
import type { FilePipeline, FileRef } from './file-pipeline.ts';

export interface WatchLoopDeps {
  normaliser: PathNormaliser;
  rules: IgnoreRulesRegistry;
  pipeline: FilePipeline;
  brandDirs: BrandDirs;
  notices: FileNotices;
  /** Rescan one brand soon (several requests in a short time make one scan). */
  rescanBrand(brandId: string): void;
  /** Rescan every brand soon. */
  rescanAll(): void;
}

export interface WatchLoopOptions {
  /** How long after an unlink the path is looked at again (default 2.5 s). */
  goneDelayMs?: number;
  usePolling?: boolean;
  fallbackIntervalMs?: number;
}

export class WatchLoop {
  readonly #deps: WatchLoopDeps;
  readonly #goneDelayMs: number;
  readonly #watcher: FolderWatcher;
  readonly #goneTimers = new Map<string, NodeJS.Timeout>();
  // Events are handled in the order they came, even when one waits for a marker read.
  #chain: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(deps: WatchLoopDeps, options: WatchLoopOptions = {}) {
    this.#deps = deps;
    this.#goneDelayMs = options.goneDelayMs ?? 2500;
    this.#watcher = new FolderWatcher({
      normaliser: deps.normaliser,
      rules: deps.rules,
      onEvent: (event) => {
        this.#chain = this.#chain
          .then(() => this.#handle(event))
          .catch((error: unknown) =>
            deps.notices.once(`watch-event:${String(error)}`, {
              level: 'warn',
              code: 'WATCH_EVENT_FAILED',
              message: `A change on disk could not be handled: ${error instanceof Error ? error.message : String(error)}. The next rescan catches it.`,
            }),
          );
      },
      ...(options.usePolling === undefined ? {} : { usePolling: options.usePolling }),
      ...(options.fallbackIntervalMs === undefined
        ? {}
        : { fallbackIntervalMs: options.fallbackIntervalMs }),
    });
  }

  /** Folders polled instead of watched (the OS refused more watches). */
  get pollingFolders(): (string | null)[] {
    return this.#watcher.pollingFolders;
  }

  /** Resolves once the watches are in place. */
  start(): Promise<void> {
    return this.#watcher.start();
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#goneTimers.values()) clearTimeout(timer);
    this.#goneTimers.clear();
    await this.#watcher.close();
    await this.#chain;
  }

  async #handle(event: WatchEvent): Promise<void> {
    if (this.#closed) return;
    const { brandDirs, notices } = this.#deps;
    switch (event.type) {
      case 'add':
      case 'change': {
        const ref = await this.#ref(event.file);
        if (ref === null) return;
        this.#cancelGone(ref.absPath);
        if (this.#deps.pipeline.needsWork(ref, event.stat)) void this.#deps.pipeline.submit(ref);
        return;
      }
      case 'unlink':
        return this.#later(event.file);
      case 'addDir':
      case 'unlinkDir': {
        if (event.dir.relPath === '') brandDirs.invalidate(event.dir.brandDir);
        const brandId = await brandDirs.brandOf(event.dir.brandDir);
        if (brandId !== null) this.#deps.rescanBrand(brandId);
        else if (event.type === 'unlinkDir' && event.dir.relPath === '') this.#deps.rescanAll();
        return;
      }
      case 'ignore-file-changed': {
        const brandId = await brandDirs.brandOf(event.brandDir);
        if (brandId !== null) this.#deps.rescanBrand(brandId);
        return;
      }
      case 'watch-limit': {
        notices.once(`watch-limit:${event.folder}`, {
          level: 'warn',
          code: 'WATCH_LIMIT',
          message: event.message,
        });
        if (event.brandDir === null) return this.#deps.rescanAll();
        const brandId = await brandDirs.brandOf(event.brandDir);
        if (brandId !== null) this.#deps.rescanBrand(brandId);
        return;
      }
      case 'issue':
        notices.once(`watch-issue:${event.issue.code}:${event.issue.absPath}`, {
          level: 'warn',
          code: event.issue.code,
          message: `${event.issue.absPath}: ${event.issue.message}`,
        });
        return;
      case 'error':
        notices.once(`watch-error:${event.code}`, {
          level: 'warn',
          code: 'WATCH_ERROR',
          message: `Watching the brand folders failed (${event.code}): ${event.message}. The periodic rescan still catches changes.`,
        });
        return;
    }
  }

  async #ref(file: NormalisedPath): Promise<FileRef | null> {
    if (file.area === 'ignored-reserved') return null;
    const brandId = await this.#deps.brandDirs.brandOf(file.brandDir);
    if (brandId === null) return null;
    return { brandId, folder: file.brandDir, relPath: file.relPath, absPath: file.absPath };
  }

  #later(file: NormalisedPath): void {
    this.#cancelGone(file.absPath);
    const timer = setTimeout(() => {
      this.#goneTimers.delete(file.absPath);
      this.#chain = this.#chain.then(async () => {
        if (this.#closed) return;
        const ref = await this.#ref(file);
        // The brand folder itself was renamed meanwhile: the rescan of the brand handles it.
        if (ref === null || this.#deps.brandDirs.brand(ref.brandId)?.folderName !== ref.folder) {
          return;
        }
        void this.#deps.pipeline.submit(ref);
      });
    }, this.#goneDelayMs);
    this.#goneTimers.set(file.absPath, timer);
  }

  #cancelGone(absPath: string): void {
    const timer = this.#goneTimers.get(absPath);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.#goneTimers.delete(absPath);
  }
}

// Where the OS refuses more watches, a folder is scanned periodically instead, and what
// changed between two scans is reported as the watcher would have: add, change, unlink.
import type { FileStat } from './file-stat.ts';
import { sameFileStat } from './file-stat.ts';
import type { IgnoreRulesRegistry } from './ignore-rules.ts';
import type { NormalisedPath, PathNormaliser } from './path-normalise.ts';
import { type ScanIssue, scanRoot } from './scanner.ts';
import { type Clock, systemClock } from './stability.ts';

export type PolledChange =
  | { type: 'add' | 'change'; file: NormalisedPath; stat: FileStat }
  | { type: 'unlink'; file: NormalisedPath };

export interface PollingFolderOptions {
  normaliser: PathNormaliser;
  rules: IgnoreRulesRegistry;
  /** The brand folder to poll, or null for the whole root. */
  brandDir: string | null;
  intervalMs: number;
  onChange: (change: PolledChange) => void;
  onIssue?: (issue: ScanIssue) => void;
  onError: (error: unknown) => void;
  clock?: Clock;
}

export class PollingFolder {
  readonly brandDir: string | null;
  readonly #opts: PollingFolderOptions;
  readonly #clock: Clock;
  #snapshot: Map<string, { file: NormalisedPath; stat: FileStat }> | undefined;
  #timer: unknown;
  #stopped = false;
  #running: Promise<void> | undefined;

  constructor(opts: PollingFolderOptions) {
    this.#opts = opts;
    this.brandDir = opts.brandDir;
    this.#clock = opts.clock ?? systemClock;
  }

  /**
   * Takes the first snapshot (silently: the caller reconciles the folder itself when the
   * fallback starts) and polls every interval after that.
   */
  start(): void {
    void this.pollNow();
  }

  /** One scan now, reporting what changed since the last one. */
  pollNow(): Promise<void> {
    this.#running ??= this.#poll().finally(() => {
      this.#running = undefined;
      if (!this.#stopped) {
        if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
        this.#timer = this.#clock.setTimeout(() => void this.pollNow(), this.#opts.intervalMs);
      }
    });
    return this.#running;
  }

  async #poll(): Promise<void> {
    if (this.#stopped) return;
    const { normaliser, rules, brandDir } = this.#opts;
    const next = new Map<string, { file: NormalisedPath; stat: FileStat }>();
    try {
      for await (const item of scanRoot({
        normaliser,
        rules,
        brandDirs: brandDir === null ? undefined : [brandDir],
      })) {
        if (item.type === 'issue') {
          this.#opts.onIssue?.(item);
          continue;
        }
        const { type: _type, stat, ...file } = item;
        next.set(file.absPath, { file, stat });
      }
    } catch (error) {
      this.#opts.onError(error);
      return;
    }
    const previous = this.#snapshot;
    this.#snapshot = next;
    if (previous === undefined || this.#stopped) return;
    for (const [absPath, now] of next) {
      const before = previous.get(absPath);
      if (before === undefined) this.#opts.onChange({ type: 'add', ...now });
      else if (!sameFileStat(before.stat, now.stat))
        this.#opts.onChange({ type: 'change', ...now });
    }
    for (const [absPath, before] of previous) {
      if (!next.has(absPath)) this.#opts.onChange({ type: 'unlink', file: before.file });
    }
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

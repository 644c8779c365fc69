// When is a file complete? When its stat (size, mtime, ctime, inode) has not moved for a
// window and it can be opened for reading. ctime helps twice: no copy tool can set it, so
// a file whose ctime is older than the window has been quiet that long (one stat is
// enough for the thousands of old files of a start-up scan), and every write moves it, so
// comparing two stats a window apart misses no write in between. Watcher events are only
// hints that say "look again"; the stats decide.
import { open, stat as fsStat } from 'node:fs/promises';
import { ioFailure } from './folder-errors.ts';
import { type FileStat, READ_FLAGS, sameFileStat, toFileStat } from './file-stat.ts';

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Stats a path (following symlinks); throws Node-style errors with a `code`. */
export type StatFn = (absPath: string) => Promise<{ isFile: boolean; stat: FileStat }>;
/** Opens a path for reading and reads a byte; throws Node-style errors with a `code`. */
export type ProbeReadFn = (absPath: string) => Promise<void>;

export const statFile: StatFn = async (absPath) => {
  const s = await fsStat(absPath);
  return { isFile: s.isFile(), stat: toFileStat(s) };
};

export const probeRead: ProbeReadFn = async (absPath) => {
  const handle = await open(absPath, READ_FLAGS);
  try {
    await handle.read(Buffer.alloc(1), 0, 1, 0);
  } finally {
    await handle.close();
  }
};

export type StabilityOutcome =
  | { status: 'stable'; absPath: string; stat: FileStat }
  // Permission denied (not a lock): record the reason, do not retry until it changes.
  | { status: 'unreadable'; absPath: string; stat: FileStat | null; code: string; reason: string }
  // Deleted, or no longer a regular file.
  | { status: 'gone'; absPath: string };

export interface StabilityOptions {
  onSettled: (outcome: StabilityOutcome) => void;
  /** A file held by another program: told at each retry. It is never given up on. */
  onLocked?: (absPath: string, attempt: number, retryInMs: number, reason: string) => void;
  /** How long a file must stay unchanged. */
  windowMs?: number;
  lockedBackoff?: { initialMs: number; maxMs: number };
  /** Stats and probes running at once. */
  maxConcurrentChecks?: number;
  clock?: Clock;
  stat?: StatFn;
  probeRead?: ProbeReadFn;
  /**
   * Let a stat passed to observe() moments ago stand in for the first check's own stat.
   * Only for a caller that compares the file's stat again when it reads it (the pipeline:
   * the hasher's stat), since a write between the two stats is then caught there.
   */
  trustFreshKnown?: boolean;
}

export const DEFAULT_STABILITY_WINDOW_MS = 1500;

interface Pending {
  absPath: string;
  last: FileStat | undefined;
  /** Since when the file is known not to have changed. */
  quietSince: number;
  lockedAttempts: number;
  /** Bumped on each reschedule: older heap entries for this path are stale. */
  version: number;
  checking: boolean;
  /** Next check time asked for during a check, queued when that check ends. */
  deferredAt: number | undefined;
  /** An event arrived during a check: its result may be out of date. */
  recheck: boolean;
  /** When `last` came from the caller (observe's `known`), for its first check. */
  knownAt: number | undefined;
}

// A stat the caller took this recently stands in for the first check's own stat.
const FRESH_KNOWN_MS = 100;

interface Due {
  at: number;
  absPath: string;
  version: number;
}

/** Min-heap on `at`: a start-up scan may put 100,000 files through here. */
class DueHeap {
  readonly #items: Due[] = [];

  peek(): Due | undefined {
    return this.#items[0];
  }

  push(item: Due): void {
    const a = this.#items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((a[parent] as Due).at <= item.at) break;
      a[i] = a[parent] as Due;
      i = parent;
    }
    a[i] = item;
  }

  pop(): Due | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (last === undefined || a.length === 0) return top;
    // Sift `last` down from the root.
    let i = 0;
    while (true) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      let mAt = last.at;
      if (l < a.length && (a[l] as Due).at < mAt) {
        m = l;
        mAt = (a[l] as Due).at;
      }
      if (r < a.length && (a[r] as Due).at < mAt) m = r;
      if (m === i) break;
      a[i] = a[m] as Due;
      i = m;
    }
    a[i] = last;
    return top;
  }
}

export class StabilityTracker {
  readonly #opts: Required<Omit<StabilityOptions, 'onLocked'>> & Pick<StabilityOptions, 'onLocked'>;
  readonly #pending = new Map<string, Pending>();
  readonly #heap = new DueHeap();
  #timer: unknown;
  #running = 0;
  #closed = false;

  constructor(opts: StabilityOptions) {
    this.#opts = {
      windowMs: DEFAULT_STABILITY_WINDOW_MS,
      lockedBackoff: { initialMs: 1000, maxMs: 60_000 },
      maxConcurrentChecks: 32,
      clock: systemClock,
      stat: statFile,
      probeRead,
      trustFreshKnown: false,
      ...opts,
    };
    if (!(this.#opts.windowMs >= 0)) {
      throw new RangeError(`windowMs must be a number ≥ 0, not ${this.#opts.windowMs}`);
    }
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  /**
   * Something happened to `absPath` (an event, or a scan found it). `known` is a stat
   * taken just now (the scanner's), which saves one.
   */
  observe(absPath: string, known?: FileStat): void {
    if (this.#closed) return;
    const now = this.#opts.clock.now();
    const existing = this.#pending.get(absPath);
    if (existing) {
      if (existing.checking) existing.recheck = true;
      else if (existing.lockedAttempts > 0) {
        // It changed: whatever held it is done writing; judge it afresh.
        existing.lockedAttempts = 0;
        this.#schedule(existing, now);
      }
      return;
    }
    const p: Pending = {
      absPath,
      last: known,
      quietSince: known ? quietSince(known, now) : now,
      lockedAttempts: 0,
      version: 0,
      checking: false,
      deferredAt: undefined,
      recheck: false,
      knownAt: known ? now : undefined,
    };
    this.#pending.set(absPath, p);
    this.#schedule(p, known ? p.quietSince + this.#opts.windowMs : now);
  }

  /** The file was deleted or moved away: stop tracking it, without an outcome. */
  forget(absPath: string): void {
    this.#pending.delete(absPath);
  }

  close(): void {
    this.#closed = true;
    this.#pending.clear();
    if (this.#timer !== undefined) this.#opts.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(p: Pending, at: number): void {
    p.version++;
    if (p.checking) {
      p.deferredAt = at;
      return;
    }
    this.#heap.push({ at, absPath: p.absPath, version: p.version });
    this.#pump();
  }

  #pump(): void {
    if (this.#closed) return;
    const now = this.#opts.clock.now();
    while (this.#running < this.#opts.maxConcurrentChecks) {
      const top = this.#heap.peek();
      if (top === undefined || top.at > now) break;
      this.#heap.pop();
      const p = this.#pending.get(top.absPath);
      if (p === undefined || p.version !== top.version) continue;
      void this.#check(p);
    }
    if (this.#timer !== undefined) this.#opts.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    const next = this.#heap.peek();
    if (next !== undefined && this.#running < this.#opts.maxConcurrentChecks) {
      this.#timer = this.#opts.clock.setTimeout(
        () => {
          this.#timer = undefined;
          this.#pump();
        },
        Math.max(0, next.at - now),
      );
    }
  }

  async #check(p: Pending): Promise<void> {
    p.checking = true;
    p.recheck = false;
    this.#running++;
    try {
      await this.#judge(p);
    } finally {
      p.checking = false;
      this.#running--;
      const at = p.deferredAt;
      p.deferredAt = undefined;
      if (at !== undefined && this.#pending.get(p.absPath) === p) this.#schedule(p, at);
      else this.#pump();
    }
  }

  async #judge(p: Pending): Promise<void> {
    const { clock, windowMs } = this.#opts;
    let observed;
    const knownAt = p.knownAt;
    p.knownAt = undefined;
    if (
      this.#opts.trustFreshKnown &&
      p.last !== undefined &&
      knownAt !== undefined &&
      clock.now() - knownAt <= FRESH_KNOWN_MS
    ) {
      // Quiet already when the caller looked, moments ago (the start-up scan's thousands
      // of old files): that stat is the check. The reader compares stats again anyway.
      observed = { isFile: true, stat: p.last };
    } else {
      try {
        observed = await this.#opts.stat(p.absPath);
      } catch (error) {
        return this.#failed(p, error, null);
      }
    }
    if (!observed.isFile) return this.#settle(p, { status: 'gone', absPath: p.absPath });
    const now = clock.now();
    if (p.last === undefined || !sameFileStat(p.last, observed.stat)) {
      p.last = observed.stat;
      p.quietSince = quietSince(observed.stat, now);
    }
    if (now - p.quietSince < windowMs) return this.#schedule(p, p.quietSince + windowMs);
    try {
      await this.#opts.probeRead(p.absPath);
    } catch (error) {
      return this.#failed(p, error, observed.stat);
    }
    this.#settle(p, { status: 'stable', absPath: p.absPath, stat: observed.stat });
  }

  #failed(p: Pending, error: unknown, stat: FileStat | null): void {
    const failure = ioFailure(error);
    if (failure.kind === 'gone') return this.#settle(p, { status: 'gone', absPath: p.absPath });
    if (failure.kind === 'locked') {
      const { initialMs, maxMs } = this.#opts.lockedBackoff;
      p.lockedAttempts++;
      const delay = Math.min(maxMs, initialMs * 2 ** (p.lockedAttempts - 1));
      this.#opts.onLocked?.(p.absPath, p.lockedAttempts, delay, failure.reason);
      return this.#schedule(p, this.#opts.clock.now() + delay);
    }
    this.#settle(p, {
      status: 'unreadable',
      absPath: p.absPath,
      stat,
      code: failure.code,
      reason: failure.reason,
    });
  }

  #settle(p: Pending, outcome: StabilityOutcome): void {
    if (this.#pending.get(p.absPath) !== p) return; // forgotten meanwhile
    if (p.recheck) {
      // An event arrived while this was judged: judge again from a fresh stat.
      p.recheck = false;
      p.last = undefined;
      return this.#schedule(p, this.#opts.clock.now());
    }
    this.#pending.delete(p.absPath);
    this.#opts.onSettled(outcome);
  }
}

/** The file has not changed since its last change time (ctime or mtime), or since now. */
function quietSince(s: FileStat, now: number): number {
  return Math.min(now, Math.max(s.ctimeMs, s.mtimeMs));
}

/** One file, as a promise: for callers that wait for a single file. */
export function waitUntilStable(
  absPath: string,
  opts: Omit<StabilityOptions, 'onSettled'> = {},
): Promise<StabilityOutcome> {
  return new Promise((resolve) => {
    const tracker = new StabilityTracker({
      ...opts,
      onSettled: (outcome) => {
        tracker.close();
        resolve(outcome);
      },
    });
    tracker.observe(absPath);
  });
}

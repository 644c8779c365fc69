// The one path every file takes, whoever noticed it (the start-up reconcile, a rescan, a
// watcher event, an upload that found its file changed):
//   look (lstat; symlinks only inside the root) → decideOnStat against its row (nothing to
//   do for an unchanged file) → StabilityTracker (complete and readable) → HasherPool →
//   classify by bytes → one synchronous step that records the file and decides: upload,
//   already on the service (a copy, move or rename), follow the same bytes already queued,
//   or skip with the reason.
// One file is handled by one run at a time; an event during a run makes it look again at
// the end. The last step of many files is applied in one transaction per tick, one file
// after another, so the second of two identical files sees the first one's row.
import { lstat, realpath, stat as fsStat } from 'node:fs/promises';
import path from 'node:path';
import { decideOnHash, decideOnStat, decideUnlinked } from '../folder-parts/change-detector.ts';
import type { UploadArea } from '../folder-parts/file-classifier.ts';
import { HasherPool } from '../folder-parts/file-hasher.ts';
import { type FileStat, sameFileStat, toFileStat } from '../folder-parts/file-stat.ts';
import { errnoCode, ioFailure } from '../folder-parts/folder-errors.ts';
import { areaOf } from '../folder-parts/folder-layout.ts';
import { probeRead, type StabilityOutcome, StabilityTracker } from '../folder-parts/stability.ts';
import type { JobQueue } from '../queue/index.ts';
import type { LocalFile, Store } from '../store/index.ts';
import { pathKey } from '../store/index.ts';
import type { BrandDirs } from './brand-dirs.ts';
import type { FileNotices } from './file-notices.ts';
import {
  isLogoPath,
  isPending,
  kindOfArea,
  logoKey,
  matchesRow,
  observedOf,
  toFileRecord,
  UNREADABLE,
  uploadKey,
  willRetry,
} from './file-keys.ts';
import type { SyncJournal } from './sync-journal.ts';

/** A file of a brand folder, as found on disk. */
export interface FileRef {
  brandId: string;
  /** The brand folder's name as on disk. */
  folder: string;
  /** Path inside the brand folder: NFC, '/' separators. */
  relPath: string;
  /** The path as it is on disk (its names may be in another Unicode form). */
  absPath: string;
}

export type FileOutcome =
  | 'unchanged'
  | 'queued' // an upload (or the logo step) is queued for it
  | 'following' // the same bytes are queued under another name: it follows that upload
  | 'already' // its bytes are on the service: nothing to send
  | 'skipped'
  | 'gone'
  | 'moved' // gone from here, same file (inode and bytes) at another path of the brand
  | 'ignored' // a symlink out of the root, a folder, a name clash: not indexed
  | 'closed'
  | 'error';

export interface UploadRequest {
  brandId: string;
  sha256: string;
  fileId: number;
  mime?: string;
}

export interface PipelineDeps {
  store: Store;
  queue: JobQueue;
  root: string;
  brandDirs: BrandDirs;
  notices: FileNotices;
  journal: SyncJournal;
  enqueueUpload(request: UploadRequest): void;
  enqueueLogo(brandId: string): void;
  /** A symlink to a folder was seen: the scanner follows those (with loop detection). */
  rescanBrand(brandId: string): void;
}

export interface PipelineOptions {
  /** How long a file's stat must stay still before it is taken (default 1.5 s). */
  windowMs?: number;
  /** Backoff for a file another program holds. */
  lockedBackoff?: { initialMs: number; maxMs: number };
  hasherThreads?: number;
}

interface Slot {
  ref: FileRef;
  /** A stat a scan has just taken of ref: the next round's look, instead of another lstat. */
  seen: FileStat | undefined;
  again: boolean;
  done: Promise<FileOutcome>;
  /** Inode seen at the last look, for move detection. */
  ino: number | null;
}

type Verdict =
  { status: 'accepted'; mime?: string } | { status: 'skipped'; code: string; reason: string };

interface ApplyItem {
  ref: FileRef;
  stat: FileStat;
  /** null: not hashed (the file cannot be read). */
  sha256: string | null;
  verdict: Verdict;
}

type Look =
  | { kind: 'file'; stat: FileStat; ino: number }
  | { kind: 'gone' }
  | { kind: 'ignored' }
  | { kind: 'unreadable'; code: string; reason: string };

const DEFAULT_WINDOW_MS = 1500;
// Recording waits this long for more files to record in the same transaction (one fsync
// for many files: a drop of 1,000 files is a few dozen commits, not 1,000).
const BATCH_DELAY_MS = 5;
const BATCH_MAX = 500;
// The first record after this long without one is not held for the delay: it is written in a
// microtask (what the same turn adds joins it). A scan floods the event loop as it starts (a
// sync of 1,000 files: 26 to 29 ms without a turn), and the first upload waited that out.
const QUIET_MS = 100;
// A hasher thread idle this long is stopped (its memory goes back); the next file starts one.
const HASHER_IDLE_MS = 10_000;

export class FilePipeline {
  readonly #deps: PipelineDeps;
  readonly #windowMs: number;
  readonly #lockedBackoff: { initialMs: number; maxMs: number };
  readonly #hasherThreads: number | undefined;
  readonly #slots = new Map<string, Slot>();
  readonly #waiters = new Map<string, (outcome: StabilityOutcome | 'closed') => void>();
  readonly #tracker: StabilityTracker;
  readonly #closing = new AbortController();
  readonly #idleWaiters: (() => void)[] = [];
  #hasher: HasherPool | undefined;
  #hashing = 0;
  #hasherIdle: NodeJS.Timeout | undefined;
  #realRoot: Promise<string> | undefined;
  #batch: { item: () => FileOutcome; resolve: (o: FileOutcome) => void }[] = [];
  #lastFlushAt = -Infinity;
  #flushScheduled = false;

  constructor(deps: PipelineDeps, options: PipelineOptions = {}) {
    this.#deps = deps;
    this.#windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
    this.#lockedBackoff = options.lockedBackoff ?? { initialMs: 1000, maxMs: 60_000 };
    this.#hasherThreads = options.hasherThreads;
    this.#tracker = new StabilityTracker({
      windowMs: this.#windowMs,
      lockedBackoff: this.#lockedBackoff,
      onSettled: (outcome) => {
        const waiter = this.#waiters.get(outcome.absPath);
        this.#waiters.delete(outcome.absPath);
        waiter?.(outcome);
      },
      onLocked: (absPath, _attempt, retryInMs, reason) =>
        this.#onLocked(absPath, retryInMs, reason),
      // No read probe here: the hasher thread opens and reads the file next, and says
      // itself when it is locked or unreadable (one open per file instead of two).
      probeRead: async () => {},
      // The stat #look just took is the first check's: the hasher's stat is compared with
      // it before anything is recorded.
      trustFreshKnown: true,
    });
  }

  get closed(): boolean {
    return this.#closing.signal.aborted;
  }

  /** Fires when the pipeline closes. */
  get signal(): AbortSignal {
    return this.#closing.signal;
  }

  /** Files being looked at, waited for, hashed or recorded. */
  get inFlight(): number {
    return this.#slots.size;
  }

  /** Resolves once no file is in the pipeline. */
  whenIdle(): Promise<void> {
    if (this.#slots.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Whether a file found by a scan with this stat needs the pipeline: new, changed, left
   * unfinished by an earlier run, or due for another try. Synchronous, so that a scan of a
   * large unchanged tree costs one indexed lookup per file.
   */
  needsWork(ref: FileRef, stat: FileStat | undefined): boolean {
    if (this.#slots.has(slotKey(ref))) return true;
    if (stat === undefined) return true;
    const row = this.#deps.store.files.getByPath(ref.brandId, ref.relPath);
    if (row === undefined || row.relPath !== ref.relPath) return true;
    return this.#rowNeedsWork(row, stat);
  }

  #rowNeedsWork(row: LocalFile, stat: FileStat): boolean {
    if (decideOnStat(toFileRecord(row), observedOf(row, stat)).action === 'rehash') return true;
    if (isPending(row)) return row.sha256 === null || !this.#jobActiveFor(row);
    if (willRetry(row)) return true;
    // A permission problem is fixed without touching the file (chmod): look again.
    return row.state === 'skipped' && row.lastError === UNREADABLE;
  }

  #jobActiveFor(row: LocalFile): boolean {
    const key = isLogoPath(row.relPath)
      ? logoKey(row.brandId)
      : uploadKey(row.brandId, row.sha256 ?? '');
    return this.#deps.store.jobs.getActiveByKey(key) !== undefined;
  }

  /**
   * Takes the file through the pipeline (or joins the run under way for it). `seen`: the stat
   * a scan has just taken of it (of its target, for a link the scan followed), as the first
   * look: a sync of 1,000 files made 1,000 async lstats fewer. Anything the file does after it
   * is caught as after any look: its hash is taken only with the stat seen at open matching.
   */
  submit(ref: FileRef, seen?: FileStat): Promise<FileOutcome> {
    if (this.closed) return Promise.resolve('closed');
    const key = slotKey(ref);
    const running = this.#slots.get(key);
    if (running !== undefined) {
      running.again = true;
      running.ref = ref;
      running.seen = seen;
      return running.done;
    }
    const slot: Slot = { ref, seen, again: false, done: Promise.resolve('closed'), ino: null };
    this.#slots.set(key, slot);
    slot.done = this.#run(slot).finally(() => {
      this.#slots.delete(key);
      if (this.#slots.size === 0) for (const resolve of this.#idleWaiters.splice(0)) resolve();
    });
    return slot.done;
  }

  /** A row's file, found again on disk, through the pipeline (an upload saw it change). */
  async resubmit(brandId: string, relPath: string): Promise<FileOutcome> {
    const folder = await this.#deps.brandDirs.currentFolder(brandId);
    if (folder === null || this.closed) return 'closed';
    const absPath =
      (await this.#deps.brandDirs.locate(folder, relPath)) ??
      path.join(this.#deps.brandDirs.dirPath(folder), ...relPath.split('/'));
    return this.submit({ brandId, folder, relPath, absPath });
  }

  async #run(slot: Slot): Promise<FileOutcome> {
    let outcome: FileOutcome;
    do {
      slot.again = false;
      try {
        outcome = await this.#once(slot);
      } catch (error) {
        if (this.closed) return 'closed';
        outcome = 'error';
        this.#deps.notices.tell({
          level: 'error',
          code: 'FILE_SYNC_ERROR',
          brandId: slot.ref.brandId,
          message: `${slot.ref.folder}/${slot.ref.relPath}: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    } while (slot.again && !this.closed);
    return outcome;
  }

  async #once(slot: Slot): Promise<FileOutcome> {
    const ref = slot.ref;
    const seen = slot.seen;
    slot.seen = undefined; // a later round looks again
    if (await this.#losesNameClash(ref)) return 'ignored';
    let look: Look =
      seen === undefined
        ? await this.#look(ref.absPath)
        : { kind: 'file', stat: seen, ino: seen.ino };
    if (this.closed) return 'closed';
    if (look.kind === 'gone') return this.gone(ref);
    if (look.kind === 'ignored') return 'ignored';
    if (look.kind === 'unreadable') {
      const known = this.#deps.store.files.getByPath(ref.brandId, ref.relPath);
      if (known?.state === 'skipped' && known.lastError === UNREADABLE) return 'unchanged';
      return 'ignored'; // no stat to index it by; the scan reports the entry
    }
    slot.ino = look.ino || null;
    const row = this.#deps.store.files.getByPath(ref.brandId, ref.relPath);
    if (row !== undefined && row.relPath !== ref.relPath) {
      // Two names differing only in case: the index folds case (one row), so one is synced.
      const other = await this.#deps.brandDirs.locate(ref.folder, row.relPath);
      const otherStat = other === null ? undefined : await lstat(other).catch(() => undefined);
      if (otherStat !== undefined && otherStat.ino !== look.stat.ino) {
        this.#deps.notices.once(`case:${ref.brandId}:${row.pathKey}`, {
          level: 'warn',
          code: 'NAME_CASE_CLASH',
          brandId: ref.brandId,
          message: `${ref.folder}/${ref.relPath} and ${ref.folder}/${row.relPath} differ only in case; only "${row.relPath}" is synced. Rename one of them.`,
        });
        return 'ignored';
      }
    } else if (row !== undefined && !this.#rowNeedsWork(row, look.stat)) {
      return 'unchanged';
    }
    let stat = look.stat;
    let locked = 0; // times the file was found held by another program
    if (!this.#isQuiet(stat)) this.#markWaiting(ref, stat);
    const area = areaOf(ref.relPath) as UploadArea;
    for (;;) {
      const settled = await this.#stable(ref.absPath, stat);
      if (settled === 'closed' || this.closed) return 'closed';
      if (settled.status === 'gone') return this.gone(ref);
      if (settled.status === 'unreadable') {
        return this.#apply({
          ref,
          stat: settled.stat ?? stat,
          sha256: null,
          verdict: { status: 'skipped', code: UNREADABLE, reason: settled.reason },
        });
      }
      stat = settled.stat;
      // Left unfinished by an earlier run, unchanged since it was hashed: the hash holds,
      // once the file can still be read (no hasher reads it this time).
      const known = this.#deps.store.files.getByPath(ref.brandId, ref.relPath);
      if (
        known?.sha256 &&
        known.relPath === ref.relPath &&
        (isPending(known) || willRetry(known)) &&
        matchesRow(known, stat)
      ) {
        const failure = await probeRead(ref.absPath).then(
          () => null,
          (error: unknown) => ioFailure(error),
        );
        if (failure === null) {
          return this.#apply({ ref, stat, sha256: known.sha256, verdict: { status: 'accepted' } });
        }
        if (failure.kind === 'gone') return this.gone(ref);
        if (failure.kind === 'locked') {
          await this.#waitLocked(ref, ++locked, failure.reason);
          continue;
        }
        return this.#apply({
          ref,
          stat,
          sha256: null,
          verdict: { status: 'skipped', code: UNREADABLE, reason: failure.reason },
        });
      }
      const hashed = await this.#hash(ref.absPath, area);
      if (this.closed) return 'closed';
      switch (hashed.status) {
        case 'changed':
          continue;
        case 'locked':
          await this.#waitLocked(ref, ++locked, hashed.reason);
          continue;
        case 'gone':
          return this.gone(ref);
        case 'unreadable':
          return this.#apply({
            ref,
            stat,
            sha256: null,
            verdict: { status: 'skipped', code: UNREADABLE, reason: hashed.reason },
          });
        case 'not-a-file':
          look = await this.#look(ref.absPath);
          return look.kind === 'gone' ? this.gone(ref) : 'ignored';
      }
      if (!sameFileStat(hashed.stat, stat)) {
        stat = hashed.stat; // written again after it looked complete: wait once more
        continue;
      }
      const sha256 = hashed.sha256;
      let verdict: Verdict;
      if (area === 'library-upload' && this.#deps.store.files.uploadOf(ref.brandId, sha256)) {
        verdict = { status: 'accepted' }; // these bytes were accepted and uploaded before
      } else if (hashed.verdict === undefined) {
        // The hasher judges every file it is given an area for: a missing verdict is a bug.
        throw new Error('the hasher returned no verdict on the file');
      } else {
        // Judged by the hasher thread from the very bytes it hashed.
        verdict =
          hashed.verdict.status === 'accepted'
            ? { status: 'accepted', mime: hashed.verdict.mime }
            : { status: 'skipped', code: hashed.verdict.code, reason: hashed.verdict.reason };
      }
      return this.#apply({ ref, stat, sha256, verdict });
    }
  }

  // ---- looking at the disk -------------------------------------------------------------

  /** The NFC spelling wins a clash of two names that are one after normalisation. */
  async #losesNameClash(ref: FileRef): Promise<boolean> {
    const raw = ref.absPath.slice(this.#deps.root.length);
    if (raw === raw.normalize('NFC')) return false;
    const nfc = path.join(this.#deps.root, raw.normalize('NFC'));
    const [own, twin] = await Promise.all([
      lstat(ref.absPath).catch(() => undefined),
      lstat(nfc).catch(() => undefined),
    ]);
    if (twin === undefined) return false;
    // A disk that ignores normalisation (macOS APFS) finds the file itself under its NFC
    // name: that is no twin.
    if (own !== undefined && own.ino === twin.ino && own.dev === twin.dev) return false;
    this.#deps.notices.once(`nfc:${ref.absPath}`, {
      level: 'warn',
      code: 'NAME_COLLISION',
      brandId: ref.brandId,
      message: `${ref.folder}/${ref.relPath} exists twice, in two Unicode spellings of one name; only the composed (NFC) one is synced. Rename the other.`,
    });
    return true;
  }

  async #look(absPath: string): Promise<Look> {
    let s;
    try {
      s = await lstat(absPath);
    } catch (error) {
      return this.#lookFailed(error);
    }
    if (s.isSymbolicLink()) {
      let real: string;
      try {
        real = await realpath(absPath);
        s = await fsStat(absPath);
      } catch (error) {
        return errnoCode(error) === 'ENOENT' ? { kind: 'gone' } : { kind: 'ignored' };
      }
      this.#realRoot ??= realpath(this.#deps.root).catch(() => this.#deps.root);
      const root = await this.#realRoot;
      const rel = path.relative(root, real);
      if (rel.startsWith('..') || path.isAbsolute(rel)) return { kind: 'ignored' };
      if (s.isDirectory()) {
        const n = this.#deps.brandDirs;
        const brand = n
          .linked()
          .find((b) => absPath.startsWith(n.dirPath(b.folderName) + path.sep));
        if (brand) this.#deps.rescanBrand(brand.id);
        return { kind: 'ignored' };
      }
    }
    if (!s.isFile()) return { kind: 'ignored' }; // a folder, a FIFO, a device: not ours
    const stat = toFileStat(s);
    return { kind: 'file', stat, ino: stat.ino };
  }

  #lookFailed(error: unknown): Look {
    const failure = ioFailure(error);
    if (failure.kind === 'gone') return { kind: 'gone' };
    return { kind: 'unreadable', code: failure.code, reason: failure.reason };
  }

  /** Quiet for the window already: no need to show it as waiting first. */
  #isQuiet(stat: FileStat): boolean {
    return Date.now() - Math.max(stat.ctimeMs, stat.mtimeMs) >= this.#windowMs;
  }

  #stable(absPath: string, stat: FileStat): Promise<StabilityOutcome | 'closed'> {
    if (this.closed) return Promise.resolve('closed');
    return new Promise((resolve) => {
      const earlier = this.#waiters.get(absPath);
      this.#waiters.set(absPath, (outcome) => {
        earlier?.(outcome);
        resolve(outcome);
      });
      this.#tracker.observe(absPath, stat);
    });
  }

  /** A file held by another program: shown as waiting, tried again after a growing delay. */
  async #waitLocked(ref: FileRef, attempt: number, reason: string): Promise<void> {
    const { initialMs, maxMs } = this.#lockedBackoff;
    const delay = Math.min(maxMs, initialMs * 2 ** (attempt - 1));
    this.#onLocked(ref.absPath, delay, reason);
    await this.#sleep(delay);
  }

  #onLocked(absPath: string, retryInMs: number, reason: string): void {
    for (const slot of this.#slots.values()) {
      if (slot.ref.absPath !== absPath) continue;
      const row = this.#deps.store.files.getByPath(slot.ref.brandId, slot.ref.relPath);
      if (row === undefined || row.state === 'uploaded') return;
      this.#deps.store.files.setState(row.id, 'waiting', {
        reason: `${reason}: trying again in ${Math.ceil(retryInMs / 1000)} s`,
      });
      return;
    }
  }

  /** A pass is about to look at folders: a hasher thread starts now (see HasherPool.warm). */
  warmHasher(): void {
    if (this.closed) return;
    this.#pool().warm();
  }

  #pool(): HasherPool {
    this.#hasher ??= new HasherPool(
      this.#hasherThreads === undefined ? {} : { threads: this.#hasherThreads },
    );
    return this.#hasher;
  }

  async #hash(absPath: string, judgeFor: UploadArea) {
    clearTimeout(this.#hasherIdle);
    const hasher = this.#pool();
    this.#hashing++;
    try {
      return await hasher.hash(absPath, judgeFor);
    } catch (error) {
      // A crashed thread: its files are not lost, they are hashed again.
      if (this.closed) return { status: 'gone' as const };
      return { status: 'changed' as const, reason: String(error) };
    } finally {
      if (--this.#hashing === 0 && !this.closed) {
        this.#hasherIdle = setTimeout(() => {
          const idle = this.#hasher;
          this.#hasher = undefined;
          void idle?.close();
        }, HASHER_IDLE_MS);
        this.#hasherIdle.unref();
      }
    }
  }

  /** Waits `ms`, or less when `until` settles first or the pipeline closes. */
  #sleep(ms: number, until?: Promise<unknown>): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#closing.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#closing.signal.addEventListener('abort', done, { once: true });
      until?.then(done, done);
    });
  }

  // ---- recording -----------------------------------------------------------------------

  /** Shows a file still being written as waiting (its row resets if it changed). */
  #markWaiting(ref: FileRef, stat: FileStat): void {
    void this.#inBatch(() => {
      this.#deps.store.files.observe({
        brandId: ref.brandId,
        relPath: ref.relPath,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        inode: stat.ino || null,
        kind: kindOfArea(areaOf(ref.relPath)),
      });
      return 'queued';
    });
  }

  #apply(item: ApplyItem): Promise<FileOutcome> {
    return this.#inBatch(() => this.#applyOne(item));
  }

  /** Runs `step` in the next batch: one transaction for all the steps asked for in a tick. */
  #inBatch(step: () => FileOutcome): Promise<FileOutcome> {
    return new Promise((resolve) => {
      this.#batch.push({ item: step, resolve });
      if (this.#batch.length >= BATCH_MAX) return this.#flush();
      if (this.#flushScheduled) return;
      this.#flushScheduled = true;
      if (performance.now() - this.#lastFlushAt >= QUIET_MS) queueMicrotask(() => this.#flush());
      else setTimeout(() => this.#flush(), BATCH_DELAY_MS);
    });
  }

  #flush(): void {
    const batch = this.#batch;
    if (batch.length === 0) return void (this.#flushScheduled = false);
    this.#flushScheduled = false;
    this.#lastFlushAt = performance.now();
    this.#batch = [];
    if (this.closed) {
      for (const { resolve } of batch) resolve('closed');
      return;
    }
    const store = this.#deps.store;
    let results: FileOutcome[] = [];
    try {
      // One transaction for the whole batch, without waiting for fsync (Db.relaxed): the
      // index is what the disk says, and a power cut that undoes a batch only makes the
      // next scan look at those files again (an upload recorded in it is answered
      // "existing" when sent again, never duplicated).
      store.db.relaxed(() =>
        store.transaction(() => {
          for (const { item } of batch) results.push(item());
        }),
      );
    } catch {
      // One step failed and the batch rolled back: each step alone, so the others stand.
      results = batch.map(({ item }) => {
        try {
          return store.transaction(item);
        } catch (error) {
          this.#deps.notices.tell({
            level: 'error',
            code: 'FILE_INDEX_FAILED',
            message: `The file index could not be updated: ${error instanceof Error ? error.message : String(error)}`,
          });
          return 'error';
        }
      });
    }
    batch.forEach(({ resolve }, i) => resolve(results[i] ?? 'error'));
  }

  #applyOne(item: ApplyItem): FileOutcome {
    const { ref, stat, sha256, verdict } = item;
    const files = this.#deps.store.files;
    const area = areaOf(ref.relPath);
    const { file } = files.observe({
      brandId: ref.brandId,
      relPath: ref.relPath,
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      inode: stat.ino || null,
      kind: kindOfArea(area),
      ...(sha256 === null ? {} : { sha256 }),
    });
    if (sha256 === null || verdict.status === 'skipped') {
      const skip = verdict as Extract<Verdict, { status: 'skipped' }>;
      const row = sha256 === null || file.sha256 === sha256 ? file : files.setHash(file.id, sha256);
      files.setState(row.id, 'skipped', {
        reason: skip.reason,
        lastError: skip.code,
        bytesSent: 0,
        nextRetryAt: null,
      });
      this.#note({ type: 'skipped', ref, code: skip.code, reason: skip.reason });
      return 'skipped';
    }
    if (file.sha256 === sha256 && file.state === 'uploaded') return 'unchanged';
    let row = file.sha256 === sha256 ? file : files.setHash(file.id, sha256);
    if (row.state !== 'waiting' && row.state !== 'uploading') {
      // Looked at again (it could not be read, its failure is due for another try): its
      // earlier verdict is not a verdict on these bytes.
      row = files.setState(row.id, 'waiting', { reason: null, lastError: null, nextRetryAt: null });
    }
    if (area === 'logo') {
      files.setState(row.id, 'waiting', { reason: null, lastError: null, nextRetryAt: null });
      this.#deps.enqueueLogo(ref.brandId);
      return 'queued';
    }
    return this.#decideUpload(ref, row, sha256, verdict.mime);
  }

  #decideUpload(ref: FileRef, row: LocalFile, sha256: string, mime?: string): FileOutcome {
    const { files, jobs } = this.#deps.store;
    const clear = { lastError: null, nextRetryAt: null } as const;
    const known = files.uploadOf(ref.brandId, sha256);
    if (known !== undefined) {
      files.setState(row.id, 'uploaded', {
        imageId: known.imageId,
        existing: true,
        reason: null,
        bytesSent: 0,
        ...clear,
      });
      this.#note({ type: 'already', ref, imageId: known.imageId });
      return 'already';
    }
    const same = files.findBySha(ref.brandId, sha256).filter((f) => !isLogoPath(f.relPath));
    const queued = jobs.getActiveByKey(uploadKey(ref.brandId, sha256)) !== undefined;
    // A pending row without its job (a crash between two steps) or a failure due for
    // another try does not hold these bytes back.
    const candidates = same
      .filter((f) => !(isPending(f) && !queued) && !willRetry(f))
      .map(toFileRecord);
    const decision = decideOnHash(
      { relPath: row.relPath, pathKey: row.pathKey, sha256 },
      candidates,
    );
    switch (decision.action) {
      case 'record-as-already-uploaded':
        files.setState(row.id, 'uploaded', {
          imageId: decision.source.imageId,
          existing: true,
          reason: null,
          bytesSent: 0,
          ...clear,
        });
        this.#note({ type: 'already', ref, imageId: decision.source.imageId });
        return 'already';
      case 'wait-for-pending':
        if (decision.source.pathKey === row.pathKey) return 'queued'; // its own upload
        files.setState(row.id, 'waiting', {
          reason: `Same bytes as "${decision.source.relPath}", which is being uploaded: they are sent once`,
          ...clear,
        });
        return 'following';
      case 'record-as-skipped': {
        const source = same.find((f) => f.pathKey === decision.source.pathKey);
        const reason = `Same bytes as "${decision.source.relPath}": ${decision.source.reason ?? 'not accepted'}`;
        const code = source?.lastError ?? 'SAME_AS_REFUSED';
        files.setState(row.id, 'skipped', {
          reason,
          bytesSent: 0,
          lastError: code,
          nextRetryAt: null,
        });
        this.#note({ type: 'skipped', ref, code, reason });
        return 'skipped';
      }
      case 'upload':
        // A row just written for these bytes is in this state already: no second write.
        if (!isFreshlyWaiting(row))
          files.setState(row.id, 'waiting', { reason: null, bytesSent: 0, attempts: 0, ...clear });
        this.#deps.enqueueUpload({
          brandId: ref.brandId,
          sha256,
          fileId: row.id,
          ...(mime === undefined ? {} : { mime }),
        });
        return 'queued';
    }
  }

  #note(
    entry:
      | { type: 'skipped'; ref: FileRef; code: string; reason: string }
      | { type: 'already'; ref: FileRef; imageId: string | null },
  ): void {
    const { ref, ...rest } = entry;
    this.#deps.journal.add({
      ...rest,
      brandId: ref.brandId,
      folder: ref.folder,
      path: ref.relPath,
    });
  }

  // ---- files that are gone -------------------------------------------------------------

  /**
   * The file is not on disk. A move inside the brand (the same inode and bytes now at
   * another path) forgets the old row quietly; otherwise the row says deleted, an upload
   * that nothing else waits for is cancelled, and the user is told that nothing was deleted
   * on the service.
   */
  async gone(ref: FileRef): Promise<FileOutcome> {
    const { files } = this.#deps.store;
    const row = files.getByPath(ref.brandId, ref.relPath);
    if (row === undefined || row.state === 'deleted' || row.relPath !== ref.relPath) return 'gone';
    this.#tracker.forget(ref.absPath);
    // The whole brand folder is not there (renamed, moved away): not a deletion of this
    // file; the brand's scan sorts it out once the folder is found again.
    const brandDir = await lstat(this.#deps.brandDirs.dirPath(ref.folder)).catch(() => undefined);
    if (!brandDir?.isDirectory()) return 'gone';
    if (row.state === 'waiting' && row.sha256 === null && row.imageId === null) {
      // Gone before it was ever complete (an editor's temp file, a cancelled copy): it
      // leaves the index without a word.
      files.remove(row.id);
      return 'gone';
    }
    if (row.sha256 !== null && row.inode !== null) {
      // The new path may still be on its way through the pipeline.
      const ino = Number(row.inode);
      const arriving = [...this.#slots.values()].filter(
        (s) => s.ino === ino && s.ref.brandId === ref.brandId && s.ref.relPath !== ref.relPath,
      );
      if (arriving.length > 0) await this.#sleep(30_000, Promise.all(arriving.map((s) => s.done)));
      if (this.closed) return 'closed';
      const twin = files
        .findBySha(ref.brandId, row.sha256)
        .find((f) => f.id !== row.id && f.inode === row.inode && f.state !== 'deleted');
      if (twin !== undefined && (await this.#deps.brandDirs.locate(ref.folder, twin.relPath))) {
        const still = files.get(row.id);
        if (still !== undefined && still.state !== 'deleted') files.remove(row.id);
        return 'moved';
      }
    }
    const current = files.get(row.id);
    if (current === undefined) return 'gone';
    const decision = decideUnlinked(toFileRecord(current));
    if (decision === null) return 'gone';
    this.#deps.store.transaction(() => {
      files.markDeleted(current.id);
      if (decision.wasPending) this.#cancelOrphanedUpload(current);
    });
    this.#deps.notices.deleted(ref.brandId, ref.folder, current.relPath, decision.message);
    this.#deps.journal.add({
      type: 'deleted',
      brandId: ref.brandId,
      folder: ref.folder,
      path: current.relPath,
      message: decision.message,
    });
    return 'gone';
  }

  /** The upload of a deleted file is cancelled unless another file has the same bytes. */
  #cancelOrphanedUpload(row: LocalFile): void {
    if (row.sha256 === null || isLogoPath(row.relPath)) return;
    const others = this.#deps.store.files
      .findBySha(row.brandId, row.sha256)
      .filter((f) => f.id !== row.id && isPending(f) && !isLogoPath(f.relPath));
    if (others.length > 0) return;
    const job = this.#deps.store.jobs.getActiveByKey(uploadKey(row.brandId, row.sha256));
    if (job !== undefined) this.#deps.queue.cancel(job.id);
  }

  /** Stops: waits end, hashing threads stop, runs under way finish as "closed". */
  async close(): Promise<void> {
    if (this.closed) return;
    this.#closing.abort();
    this.#tracker.close();
    for (const waiter of this.#waiters.values()) waiter('closed');
    this.#waiters.clear();
    this.#flush();
    clearTimeout(this.#hasherIdle);
    await Promise.allSettled([...this.#slots.values()].map((s) => s.done));
    await this.#hasher?.close();
  }
}

function slotKey(ref: FileRef): string {
  return `${ref.brandId}\u0000${pathKey(ref.relPath)}`;
}

/** Waiting with nothing left of an earlier attempt: what a row for new bytes starts as. */
function isFreshlyWaiting(row: LocalFile): boolean {
  return (
    row.state === 'waiting' &&
    row.reason === null &&
    row.bytesSent === 0 &&
    row.attempts === 0 &&
    row.lastError === null &&
    row.nextRetryAt === null
  );
}

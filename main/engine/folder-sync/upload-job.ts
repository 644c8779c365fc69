// The durable upload of one brand's bytes (one job per brand and sha256). The job sends
// from whichever file with those bytes is still waiting, checking before and after the
// send that the file is still the one that was hashed: a file changed meanwhile goes back
// through the pipeline and is never recorded with a stale hash. When the job is done, every
// file waiting for those bytes becomes uploaded in the same transaction.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { isApiError } from '../api/index.ts';
import type { ApiClient } from '../api/index.ts';
import {
  type FileStat,
  READ_FLAGS,
  sameFileStat,
  statNow,
  toFileStat,
} from '../folder-parts/file-stat.ts';
import { ioFailure } from '../folder-parts/folder-errors.ts';
import type { JobContext, JobQueue, RunningJob } from '../queue/index.ts';
import { PermanentError, TransientError } from '../queue/index.ts';
import type { JobError, LocalFile, Store } from '../store/index.ts';
import type { BrandDirs } from './brand-dirs.ts';
import { ByteBudget } from './byte-budget.ts';
import { type LentBuffer, UploadBuffers } from './upload-buffers.ts';
import type { FilePipeline } from './file-pipeline.ts';
import { isLogoPath, isPending, matchesRow, UPLOAD_KIND } from './file-keys.ts';
import type { SyncJournal } from './sync-journal.ts';

export const UploadPayload = z.object({
  brandId: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The row that asked for the upload; any row with the same bytes may be sent instead. */
  fileId: z.number().int(),
  mime: z.string().optional(),
});
export type UploadPayload = z.infer<typeof UploadPayload>;

export type UploadOutcome =
  | {
      status: 'uploaded';
      fileId: number;
      relPath: string;
      size: number;
      imageId: string;
      existing: boolean;
    }
  /** The bytes were recorded as uploaded before this job ran. */
  | { status: 'known'; imageId: string | null }
  /** No file with these bytes waits any more (deleted, changed, moved on). */
  | { status: 'nothing'; why: string };

export interface UploadJobDeps {
  store: Store;
  client: ApiClient;
  queue: JobQueue;
  brandDirs: BrandDirs;
  journal: SyncJournal;
  pipeline: () => FilePipeline;
  now: () => number;
}

export interface UploadJobOptions {
  /** Uploads at once (default 12: the queue runs 14 jobs at once, two stay for the rest). */
  concurrency?: number;
  /** File bytes the uploads may hold at once (default 64 MiB); a larger file goes alone. */
  bytesInFlight?: number;
  /** Before a file shows as "uploading" (a small file is done before that). */
  uploadingAfterMs?: number;
}

const PROGRESS_WRITE_MS = 1000;
// Sources tried by one run at most (a file rewritten again and again ends the run; the
// pipeline queues it again once it is still).
const MAX_ROUNDS = 10;

/**
 * Uploads at once by default: enough to keep the service busy while this process records the
 * ones that ended, and to fill a link whose round trip is long (with a 100 ms round trip, 8
 * at once can send no more than 80 small files a second). The pacer still decides when each
 * request leaves; the byte budget below bounds what they hold. `npm run bench upload`: 12 at
 * once 3 to 11 % faster than 8 (docs/service.md).
 */
export const DEFAULT_UPLOAD_CONCURRENCY = 12;
/** 12 files of 5 MiB, or 6 of the largest the service takes (10 MB). */
export const DEFAULT_UPLOAD_BYTES_IN_FLIGHT = 64 * 1024 * 1024;

export function registerUploadJob(deps: UploadJobDeps, options: UploadJobOptions = {}) {
  const { store, journal } = deps;
  const budget = new ByteBudget(options.bytesInFlight ?? DEFAULT_UPLOAD_BYTES_IN_FLIGHT);
  const buffers = new UploadBuffers();
  return deps.queue.register<UploadPayload>(UPLOAD_KIND, {
    payload: UploadPayload,
    concurrency: options.concurrency ?? DEFAULT_UPLOAD_CONCURRENCY,
    maxAttempts: 8,
    run: (job, ctx) => runUpload(deps, options, { budget, buffers }, job, ctx),
    onDone(job, result) {
      const outcome = result as UploadOutcome;
      const { brandId, sha256 } = job.payload;
      const files = store.files;
      if (outcome.status === 'nothing') return;
      const imageId = outcome.imageId;
      if (outcome.status === 'uploaded') {
        files.recordUpload({
          brandId,
          sha256,
          kind: 'image',
          imageId,
          existing: outcome.existing,
          size: outcome.size,
        });
      }
      const folder = deps.brandDirs.brand(brandId)?.folderName ?? brandId;
      for (const file of waitingFor(store, brandId, sha256)) {
        const sent = outcome.status === 'uploaded' && file.id === outcome.fileId;
        files.setState(file.id, 'uploaded', {
          imageId,
          existing: sent ? outcome.existing : true,
          bytesSent: sent ? file.size : 0,
          reason: null,
          lastError: null,
          nextRetryAt: null,
        });
        journal.add(
          sent
            ? {
                type: 'uploaded',
                brandId,
                folder,
                path: file.relPath,
                imageId,
                existing: outcome.existing,
              }
            : { type: 'already', brandId, folder, path: file.relPath, imageId },
        );
      }
    },
    onFailed(job, error) {
      failWaiting(deps, job.payload.brandId, job.payload.sha256, error);
    },
  });
}

/** Rows of the brand's Library area waiting for these bytes. */
function waitingFor(store: Store, brandId: string, sha256: string): LocalFile[] {
  return store.files
    .findBySha(brandId, sha256)
    .filter((f) => isPending(f) && !isLogoPath(f.relPath));
}

function failWaiting(deps: UploadJobDeps, brandId: string, sha256: string, error: JobError): void {
  const folder = deps.brandDirs.brand(brandId)?.folderName ?? brandId;
  for (const file of waitingFor(deps.store, brandId, sha256)) {
    deps.store.files.setState(file.id, 'failed', {
      reason: error.message,
      lastError: error.code,
      // A transient failure that ran out of attempts is tried again by the next pass.
      nextRetryAt: error.retryable ? deps.now() : null,
      bytesSent: 0,
    });
    deps.journal.add({
      type: 'failed',
      brandId,
      folder,
      path: file.relPath,
      code: error.code,
      reason: error.message,
      willRetry: error.retryable,
    });
  }
}

/** What the uploads share: the bytes they may hold, and the buffers they read into. */
interface Held {
  budget: ByteBudget;
  buffers: UploadBuffers;
}

async function runUpload(
  deps: UploadJobDeps,
  options: UploadJobOptions,
  held: Held,
  job: RunningJob<UploadPayload>,
  ctx: JobContext,
): Promise<UploadOutcome> {
  const { brandId, sha256 } = job.payload;
  const { store } = deps;
  const brand = deps.brandDirs.brand(brandId);
  if (brand === undefined) {
    throw new PermanentError(
      'BRAND_NOT_LINKED',
      `Brand ${brandId} has no folder here any more (deleted on the service?): nothing was sent.`,
    );
  }
  const known = store.files.uploadOf(brandId, sha256);
  if (known !== undefined) return { status: 'known', imageId: known.imageId };
  // Rows tried, with the stat they had: a row the pipeline took again (new stat, same
  // bytes) may be tried again.
  const tried = new Map<number, string>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const source = pickSource(store, job.payload, tried);
    if (source === undefined) break;
    tried.set(source.id, signature(source));
    // Held from the read until the answer: the bytes are in memory all that time, and no
    // longer (a file looked at again below may take a while).
    const release = await held.budget.acquire(source.size, ctx.signal);
    let outcome: UploadOutcome | 'look-again';
    try {
      outcome = await sendFrom(deps, options, held.buffers, brand.folderName, source, job, ctx);
    } finally {
      release();
    }
    if (outcome !== 'look-again') return outcome;
    // Changed or gone since it was hashed: the pipeline takes it again (and queues its new
    // bytes) before this job ends, so that a pass waiting for the queue waits for it too.
    await deps.pipeline().resubmit(brandId, source.relPath);
  }
  return { status: 'nothing', why: 'no file with these bytes waits any more' };
}

/**
 * One try of one source: its bytes read, sent, and checked unchanged after the send.
 * 'look-again': the file changed or went since it was hashed (its row waits again).
 */
async function sendFrom(
  deps: UploadJobDeps,
  options: UploadJobOptions,
  buffers: UploadBuffers,
  linkedFolder: string | null,
  source: LocalFile,
  job: RunningJob<UploadPayload>,
  ctx: JobContext,
): Promise<UploadOutcome | 'look-again'> {
  const { store } = deps;
  const { brandId, sha256 } = job.payload;
  const read = await readSource(deps, buffers, linkedFolder, source);
  if (read.status === 'no-folder') {
    // The rows stay waiting; the next scan, once the brand folder exists again, decides.
    return { status: 'nothing', why: 'the brand folder is not there' };
  }
  if (read.status === 'locked') {
    throw new TransientError('FILE_LOCKED', `${source.relPath}: ${read.reason}`);
  }
  if (read.status === 'changed') return 'look-again';
  const { absPath, stat: before, content } = read;
  const progress = new ProgressWriter(store, source, ctx, options.uploadingAfterMs ?? 250);
  let sent;
  try {
    try {
      sent = await deps.client.uploadImage(
        brandId,
        {
          path: absPath,
          fileName: path.posix.basename(source.relPath),
          content,
          ...(job.payload.mime === undefined ? {} : { mimeType: job.payload.mime }),
        },
        { signal: ctx.signal, onProgress: (p) => progress.report(p.transferred) },
      );
    } finally {
      // Settled: its body was all written, or its request destroyed (upload-buffers.ts).
      read.giveBack();
    }
  } catch (error) {
    progress.stop();
    const after = statOf(absPath);
    const fileChanged =
      after === null ||
      !sameFileStat(before, after) ||
      (isApiError(error) && error.code === 'FILE_CHANGED');
    if (fileChanged && !ctx.signal.aborted) {
      backToWaiting(store, source, sha256, null);
      return 'look-again';
    }
    backToWaiting(
      store,
      source,
      sha256,
      ctx.signal.aborted
        ? null
        : `Not sent yet: ${error instanceof Error ? error.message : String(error)}`,
    );
    throw error;
  }
  progress.stop();
  const after = statOf(absPath);
  if (after === null || !sameFileStat(before, after)) {
    // Written to during the send: the bytes sent may not be the ones hashed. Not recorded;
    // the file goes through the pipeline again (the service answers "existing" for bytes it
    // already has).
    backToWaiting(store, source, sha256, null);
    return 'look-again';
  }
  return {
    status: 'uploaded',
    fileId: source.id,
    relPath: source.relPath,
    size: before.size,
    imageId: sent.id,
    existing: sent.existing === true,
  };
}

type SourceRead =
  /** `content` is lent (upload-buffers.ts): given back once the upload's exchange settled. */
  | { status: 'read'; absPath: string; stat: FileStat; content: Buffer; giveBack: () => void }
  /** Changed, gone or unreadable since it was hashed: the pipeline looks at it again. */
  | { status: 'changed' }
  | { status: 'locked'; reason: string }
  | { status: 'no-folder' };

/**
 * The source file's bytes, read whole through one handle whose stat matches the row: what
 * is sent is exactly what was checked (files are at most 10 MB). The linked folder is
 * tried first; only a path that is not there looks for a renamed folder or another
 * Unicode form of the name.
 */
async function readSource(
  deps: UploadJobDeps,
  buffers: UploadBuffers,
  linkedFolder: string | null,
  source: LocalFile,
): Promise<SourceRead> {
  const direct =
    linkedFolder === null
      ? null
      : path.join(deps.brandDirs.dirPath(linkedFolder), ...source.relPath.split('/'));
  const first = direct === null ? GONE : await readChecked(direct, source, buffers);
  if (first.status !== 'gone') return first;
  // Where the folder is now (renamed while the app was closed: linked again by its marker).
  const folder = await deps.brandDirs.currentFolder(source.brandId);
  if (folder === null) return { status: 'no-folder' };
  const absPath = await deps.brandDirs.locate(folder, source.relPath);
  if (absPath === null || absPath === direct) return { status: 'changed' };
  const again = await readChecked(absPath, source, buffers);
  return again.status === 'gone' ? { status: 'changed' } : again;
}

const GONE = { status: 'gone' } as const;

// Files up to this size are read with synchronous calls: on a busy machine each
// thread-pool round trip of an async call (open, stat, read, close) costs more than
// reading 2 MiB from the page cache; larger files go through the thread pool, so the
// event loop never waits long.
const SYNC_READ_MAX = 2 * 1024 * 1024;

/** The file's bytes if its stat (taken on the open file) still matches the row. */
async function readChecked(
  absPath: string,
  source: LocalFile,
  buffers: UploadBuffers,
): Promise<SourceRead | typeof GONE> {
  try {
    const read =
      source.size <= SYNC_READ_MAX
        ? readWholeSync(absPath, source, buffers)
        : await readWholeAsync(absPath, source);
    if (read === null) return { status: 'changed' };
    return { status: 'read', absPath, ...read };
  } catch (error) {
    const failure = ioFailure(error);
    if (failure.kind === 'gone') return GONE;
    return failure.kind === 'locked'
      ? { status: 'locked', reason: failure.reason }
      : { status: 'changed' };
  }
}

type WholeRead = { stat: FileStat; content: Buffer; giveBack: () => void } | null;

/**
 * null: not a regular file, not the file of the row any more (checked before anything is
 * read: a file replaced by a huge one is not loaded), or shorter than its stat.
 */
function readWholeSync(absPath: string, source: LocalFile, buffers: UploadBuffers): WholeRead {
  const fd = openSync(absPath, READ_FLAGS);
  let lent: LentBuffer | undefined;
  try {
    const s = fstatSync(fd);
    const stat = toFileStat(s);
    if (!s.isFile() || !matchesRow(source, stat)) return null;
    lent = buffers.lend(stat.size);
    const content = lent.bytes;
    let filled = 0;
    while (filled < content.length) {
      const n = readSync(fd, content, filled, content.length - filled, filled);
      if (n === 0) return null;
      filled += n;
    }
    const read = { stat, content, giveBack: lent.giveBack };
    lent = undefined; // handed over with the bytes
    return read;
  } finally {
    lent?.giveBack();
    closeSync(fd);
  }
}

async function readWholeAsync(absPath: string, source: LocalFile): Promise<WholeRead> {
  const handle = await open(absPath, READ_FLAGS);
  try {
    const s = await handle.stat();
    const stat = toFileStat(s);
    if (!s.isFile() || !matchesRow(source, stat)) return null;
    const content = Buffer.allocUnsafe(stat.size);
    let filled = 0;
    while (filled < content.length) {
      const { bytesRead } = await handle.read(content, filled, content.length - filled, filled);
      if (bytesRead === 0) return null;
      filled += bytesRead;
    }
    return { stat, content, giveBack: () => {} };
  } finally {
    await handle.close().catch(() => {});
  }
}

/** The row the job was made for, else another row waiting for the same bytes. */
function pickSource(
  store: Store,
  payload: UploadPayload,
  tried: ReadonlyMap<number, string>,
): LocalFile | undefined {
  const rows = store.files
    .findBySha(payload.brandId, payload.sha256)
    .filter((f) => isPending(f) && !isLogoPath(f.relPath) && tried.get(f.id) !== signature(f));
  return rows.find((f) => f.id === payload.fileId) ?? rows[0];
}

function signature(row: LocalFile): string {
  return `${row.size}:${row.mtimeMs}:${row.inode ?? ''}`;
}

/** The file's stat now, or null when it is gone or not a file (a metadata call: sync). */
function statOf(absPath: string): FileStat | null {
  const s = statNow(absPath);
  return s?.isFile() ? toFileStat(s) : null;
}

/** The row (if it still stands for these bytes) is waiting again, with why. */
function backToWaiting(
  store: Store,
  source: LocalFile,
  sha256: string,
  reason: string | null,
): void {
  const row = store.files.get(source.id);
  if (row === undefined || row.sha256 !== sha256 || !isPending(row)) return;
  store.files.setState(row.id, 'waiting', { bytesSent: 0, reason });
}

/**
 * Progress into the job (for the UI) at every step, and into the row now and then: a small
 * file is sent before it would show as uploading, so it costs no write.
 */
class ProgressWriter {
  readonly #store: Store;
  readonly #row: LocalFile;
  readonly #ctx: JobContext;
  #sent = 0;
  #written = -1;
  #lastWrite = 0;
  #shown = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(store: Store, row: LocalFile, ctx: JobContext, showAfterMs: number) {
    this.#store = store;
    this.#row = row;
    this.#ctx = ctx;
    ctx.progress(0, row.size);
    this.#timer = setTimeout(() => this.#write(true), showAfterMs);
  }

  report(transferred: number): void {
    this.#sent = Math.min(transferred, this.#row.size);
    this.#ctx.progress(this.#sent, this.#row.size);
    if (this.#shown && Date.now() - this.#lastWrite >= PROGRESS_WRITE_MS) this.#write(false);
  }

  #write(first: boolean): void {
    this.#timer = undefined;
    if (this.#written === this.#sent && !first) return;
    const row = this.#store.files.get(this.#row.id);
    if (row === undefined || row.sha256 !== this.#row.sha256 || !isPending(row)) return;
    this.#store.files.setState(row.id, 'uploading', { bytesSent: this.#sent, reason: null });
    this.#shown = true;
    this.#written = this.#sent;
    this.#lastWrite = Date.now();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

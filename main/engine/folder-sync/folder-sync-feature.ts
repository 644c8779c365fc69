// Folder sync, wired into the engine: every file dropped into a brand folder reaches the
// brand's Library once; the newest file in Logo/ becomes the brand's logo.
//   - each brand listing queues a scan of every brand folder (sync --once waits for them);
//   - `run` also watches the whole root (FolderWatcher + the pipeline's StabilityTracker),
//     scans every brand at start and every hour, and rescans a brand when the watcher may
//     have missed something;
//   - uploads and logos are durable jobs; a pass reports what was uploaded, skipped and
//     failed, with reasons.
import path from 'node:path';
import type {
  EngineFeature,
  EngineParts,
  FeatureFactory,
  FeatureReport,
  JobFeed,
  JobSubject,
} from '../core/engine.ts';
import { ensureSyncRoot } from '../folder-parts/brand-folders.ts';
import { statNow } from '../folder-parts/file-stat.ts';
import { IgnoreRulesRegistry } from '../folder-parts/ignore-rules.ts';
import { PathNormaliser } from '../folder-parts/path-normalise.ts';
import { DEFAULT_RESCAN_INTERVAL_MS } from '../folder-parts/scanner.ts';
import { DEFAULT_STABILITY_WINDOW_MS } from '../folder-parts/stability.ts';
import type { JobKindHandle } from '../queue/index.ts';
import type { JobError, JobRecord } from '../store/index.ts';
import { BrandDirs } from './brand-dirs.ts';
import { FileNotices } from './file-notices.ts';
import { FilePipeline, type UploadRequest } from './file-pipeline.ts';
import { LOGO_KIND, logoKey, SCAN_KIND, scanKey, UPLOAD_KIND, uploadKey } from './file-keys.ts';
import { type BrandScanSummary, reconcileBrand } from './folder-reconcile.ts';
import { logoRows, type LogoPayload, registerLogoJob } from './logo-job.ts';
import { registerScanJob, ScanPayload } from './scan-job.ts';
import { SyncJournal } from './sync-journal.ts';
import { registerUploadJob, UploadPayload } from './upload-job.ts';
import { WatchLoop } from './watch-loop.ts';

export const FOLDER_SYNC_FEATURE = 'folders';

export interface FolderSyncOptions {
  /** How long a file must stay unchanged before it is taken (default 1.5 s). */
  windowMs?: number;
  /** Full rescan interval under `run` (default 1 h). */
  rescanIntervalMs?: number;
  /** Uploads at once (default DEFAULT_UPLOAD_CONCURRENCY). */
  uploadConcurrency?: number;
  /** File bytes the uploads may hold at once (default DEFAULT_UPLOAD_BYTES_IN_FLIGHT). */
  uploadBytesInFlight?: number;
  hasherThreads?: number;
  /** How long a scan waits for one incomplete file before moving on (default 60 s). */
  settleWaitMs?: number;
  /** How long after an unlink event the path is looked at again (default window + 1 s). */
  goneDelayMs?: number;
  /** Several rescan requests for one brand within this time make one scan (default 2 s). */
  rescanDebounceMs?: number;
  /** Before a file being sent shows as uploading (default 250 ms). */
  uploadingAfterMs?: number;
  lockedBackoff?: { initialMs: number; maxMs: number };
  /** Poll instead of native watching (network drives). */
  usePolling?: boolean;
  fallbackIntervalMs?: number;
}

interface ScanState {
  running: Promise<BrandScanSummary> | null;
  rerun: Promise<BrandScanSummary> | null;
  startedAt: number;
  last: BrandScanSummary | null;
}

/** The feature for Engine.open({features}). */
export function folderSyncFeature(options: FolderSyncOptions = {}): FeatureFactory {
  return (parts) => new FolderSync(parts, options);
}

export class FolderSync implements EngineFeature {
  readonly name = FOLDER_SYNC_FEATURE;
  readonly pipeline: FilePipeline;
  readonly brandDirs: BrandDirs;
  readonly journal: SyncJournal;
  readonly #parts: EngineParts;
  readonly #options: FolderSyncOptions;
  readonly #root: string;
  readonly #notices: FileNotices;
  readonly #uploads: JobKindHandle<UploadPayload>;
  readonly #logos: JobKindHandle<LogoPayload>;
  readonly #scanJobs: JobKindHandle<ScanPayload>;
  readonly #scans = new Map<string, ScanState>();
  readonly #rescanTimers = new Map<string, NodeJS.Timeout>();
  readonly #offs: (() => void)[] = [];
  #ready: Promise<{ normaliser: PathNormaliser; rules: IgnoreRulesRegistry }> | undefined;
  #watch: WatchLoop | undefined;
  #watchingSince: number | null = null;
  #periodic: NodeJS.Timeout | undefined;
  #started = false;
  /** Brands seen in a listing: a periodic listing scans only the ones not seen before. */
  readonly #listed = new Set<string>();

  constructor(parts: EngineParts, options: FolderSyncOptions = {}) {
    this.#parts = parts;
    this.#options = options;
    this.#root = path.resolve(parts.root);
    this.#notices = new FileNotices(parts.events);
    this.journal = new SyncJournal(parts.now);
    this.brandDirs = new BrandDirs(parts.store, this.#root, this.#notices);
    const pipeline = () => this.pipeline;
    this.#uploads = registerUploadJob(
      {
        store: parts.store,
        client: parts.client,
        queue: parts.queue,
        brandDirs: this.brandDirs,
        journal: this.journal,
        pipeline,
        now: parts.now,
      },
      {
        ...(options.uploadConcurrency === undefined
          ? {}
          : { concurrency: options.uploadConcurrency }),
        ...(options.uploadBytesInFlight === undefined
          ? {}
          : { bytesInFlight: options.uploadBytesInFlight }),
        ...(options.uploadingAfterMs === undefined
          ? {}
          : { uploadingAfterMs: options.uploadingAfterMs }),
      },
    );
    this.#logos = registerLogoJob({
      store: parts.store,
      client: parts.client,
      queue: parts.queue,
      events: parts.events,
      brandDirs: this.brandDirs,
      journal: this.journal,
      pipeline,
    });
    this.pipeline = new FilePipeline(
      {
        store: parts.store,
        queue: parts.queue,
        root: this.#root,
        brandDirs: this.brandDirs,
        notices: this.#notices,
        journal: this.journal,
        enqueueUpload: (request) => this.#enqueueUpload(request),
        enqueueLogo: (brandId) => this.#enqueueLogo(brandId),
        rescanBrand: (brandId) => this.#rescanSoon(brandId),
      },
      {
        windowMs: options.windowMs ?? DEFAULT_STABILITY_WINDOW_MS,
        ...(options.lockedBackoff ? { lockedBackoff: options.lockedBackoff } : {}),
        ...(options.hasherThreads === undefined ? {} : { hasherThreads: options.hasherThreads }),
      },
    );
    this.#scanJobs = registerScanJob({
      queue: parts.queue,
      scan: (brandId) => this.scanBrand(brandId, { force: false }),
      stopped: this.pipeline.signal,
    });
    this.#offs.push(
      parts.events.on('brands:refreshed', ({ brands, folders, reason }) => {
        this.brandDirs.invalidate();
        for (const brand of brands) {
          if (!folders.has(brand.id)) continue;
          // A periodic listing scans only brands new to this engine: the watcher and the
          // hourly rescan cover the others, and an idle engine must stay idle.
          const known = this.#listed.has(brand.id);
          this.#listed.add(brand.id);
          if (reason === 'reconcile' || !known) this.#enqueueScan(brand.id);
        }
      }),
      // A newer logo that arrived while the logo job was finishing: one more run.
      parts.queue.events.on('job:done', ({ job }) => {
        if (job.kind !== LOGO_KIND || job.brandId === null || this.pipeline.closed) return;
        const waiting = logoRows(parts.store, job.brandId).some(
          (r) => r.state === 'waiting' && r.sha256 !== null,
        );
        if (waiting) this.#enqueueLogo(job.brandId);
      }),
    );
  }

  // ---- engine hooks ----------------------------------------------------------------------

  /** Queues a scan of every linked brand folder (the brand listing queues the rest). */
  reconcile(): void {
    // The scans follow in moments, or once the brand listing is in: the hasher's thread and
    // the root's case probe start now, while brands are listed (some 20 ms of file system
    // calls that the first scan waited for, after the listing). A root not made yet is made
    // and probed by the first scan, after the listing, as before. The probe is begun before
    // any await, so that stop() finds it and waits for it.
    this.pipeline.warmHasher();
    if (isDirectory(this.#root) && !this.pipeline.closed) {
      this.#prepare().catch(() => undefined); // the scan that needs it prepares again, and says why
    }
    for (const brand of this.brandDirs.linked()) this.#enqueueScan(brand.id);
  }

  /** `run`: the watcher first, then a scan of every brand (nothing falls between the two). */
  async start(): Promise<void> {
    if (this.#started || this.pipeline.closed) return;
    this.#started = true;
    const { normaliser, rules } = await this.#prepare();
    this.#watch = new WatchLoop(
      {
        normaliser,
        rules,
        pipeline: this.pipeline,
        brandDirs: this.brandDirs,
        notices: this.#notices,
        rescanBrand: (brandId) => this.#rescanSoon(brandId),
        rescanAll: () => this.#rescanAllSoon(),
      },
      {
        goneDelayMs:
          this.#options.goneDelayMs ??
          (this.#options.windowMs ?? DEFAULT_STABILITY_WINDOW_MS) + 1000,
        ...(this.#options.usePolling === undefined ? {} : { usePolling: this.#options.usePolling }),
        ...(this.#options.fallbackIntervalMs === undefined
          ? {}
          : { fallbackIntervalMs: this.#options.fallbackIntervalMs }),
      },
    );
    await this.#watch.start();
    this.#watchingSince = Date.now();
    const every = this.#options.rescanIntervalMs ?? DEFAULT_RESCAN_INTERVAL_MS;
    this.#periodic = setInterval(() => this.#scanAll(), every);
    this.#periodic.unref();
    this.#scanAll();
  }

  async stop(): Promise<void> {
    clearInterval(this.#periodic);
    for (const timer of this.#rescanTimers.values()) clearTimeout(timer);
    this.#rescanTimers.clear();
    for (const off of this.#offs.splice(0)) off();
    await this.#watch?.close();
    await this.pipeline.close();
    await Promise.allSettled([...this.#scans.values()].map((s) => s.running));
    await this.#ready?.catch(() => undefined); // a probe started ahead leaves no file behind
    this.#notices.close();
  }

  describe(job: JobRecord): JobSubject | undefined {
    const folderOf = (brandId: string) =>
      this.#parts.store.brands.get(brandId)?.folderName ?? brandId;
    if (job.kind === UPLOAD_KIND) {
      const payload = UploadPayload.safeParse(job.payload);
      if (!payload.success) return { area: 'file', subject: job.key ?? `#${job.id}` };
      const { brandId, sha256, fileId } = payload.data;
      const files = this.#parts.store.files;
      const row = files.get(fileId) ?? files.findBySha(brandId, sha256)[0];
      return {
        area: 'file',
        subject: `${folderOf(brandId)}/${row?.relPath ?? `(bytes ${sha256.slice(0, 12)}…)`}`,
      };
    }
    if (job.kind === LOGO_KIND || job.kind === SCAN_KIND) {
      const brandId = ScanPayload.safeParse(job.payload).data?.brandId ?? job.brandId ?? '';
      return { area: job.kind === LOGO_KIND ? 'logo' : 'folder', subject: folderOf(brandId) };
    }
    return undefined;
  }

  announce(job: JobRecord, feed: JobFeed, error?: JobError): void {
    if (job.kind === LOGO_KIND && job.state === 'done') {
      feed.push({ type: 'brand', brandId: job.brandId });
    }
    if (job.kind === UPLOAD_KIND && job.state === 'failed' && job.brandId !== null) {
      feed.push({
        type: 'notify',
        kind: 'upload-failed',
        title: 'An upload failed',
        message: `${this.describe(job)?.subject ?? job.key ?? `#${job.id}`}: ${error?.message ?? job.lastError?.message ?? ''}`,
        brandId: job.brandId,
      });
    }
  }

  holdReport(): () => void {
    return this.journal.hold();
  }

  report(since: number): FeatureReport {
    const counts = this.#parts.store.files.countsByState();
    // While the service holds every request (429 Retry-After), every job waits, a file's own
    // checks too: that, not the file, is why it waits.
    const held = this.#parts.queue.status().rateLimitedUntil;
    return this.journal.report(since, counts.waiting + counts.uploading, held ?? undefined);
  }

  // ---- scans -------------------------------------------------------------------------------

  /**
   * Scans a brand folder. Without `force`, a scan that started while the watcher was
   * already running covers the request (the watcher saw every change since).
   */
  async scanBrand(brandId: string, options: { force: boolean }): Promise<BrandScanSummary> {
    let state = this.#scans.get(brandId);
    if (state === undefined) {
      state = { running: null, rerun: null, startedAt: 0, last: null };
      this.#scans.set(brandId, state);
    }
    const covered =
      !options.force && this.#watchingSince !== null && state.startedAt >= this.#watchingSince;
    if (covered && state.running) return state.running;
    if (covered && state.last) return state.last;
    if (state.running) {
      const current = state;
      state.rerun ??= state.running.then(
        () => this.#startScan(brandId, current),
        () => this.#startScan(brandId, current),
      );
      return state.rerun;
    }
    return this.#startScan(brandId, state);
  }

  #startScan(brandId: string, state: ScanState): Promise<BrandScanSummary> {
    state.rerun = null;
    state.startedAt = Date.now();
    const running = this.#prepare()
      .then(({ normaliser, rules }) =>
        reconcileBrand(
          {
            store: this.#parts.store,
            pipeline: this.pipeline,
            brandDirs: this.brandDirs,
            notices: this.#notices,
            normaliser,
            rules,
          },
          brandId,
          { signal: this.pipeline.signal, settleWaitMs: this.#options.settleWaitMs ?? 60_000 },
        ),
      )
      .then((summary) => {
        state.last = summary;
        return summary;
      })
      .finally(() => {
        if (state.running === running) state.running = null;
      });
    state.running = running;
    return running;
  }

  #scanAll(): void {
    for (const brand of this.brandDirs.linked()) {
      void this.scanBrand(brand.id, { force: true }).catch((error: unknown) =>
        this.#scanFailed(brand.id, error),
      );
    }
  }

  #rescanSoon(brandId: string): void {
    if (this.pipeline.closed || this.#rescanTimers.has(brandId)) return;
    const timer = setTimeout(() => {
      this.#rescanTimers.delete(brandId);
      void this.scanBrand(brandId, { force: true }).catch((error: unknown) =>
        this.#scanFailed(brandId, error),
      );
    }, this.#options.rescanDebounceMs ?? 2000);
    this.#rescanTimers.set(brandId, timer);
  }

  #rescanAllSoon(): void {
    this.brandDirs.invalidate();
    for (const brand of this.brandDirs.linked()) this.#rescanSoon(brand.id);
  }

  #scanFailed(brandId: string, error: unknown): void {
    if (this.pipeline.closed) return;
    this.#notices.tell({
      level: 'warn',
      code: 'FOLDER_SCAN_FAILED',
      brandId,
      message: `The folder of brand ${brandId} could not be scanned: ${error instanceof Error ? error.message : String(error)}`,
    });
  }

  /** The root exists, its case sensitivity is known, the ignore rules are ready. */
  #prepare(): Promise<{ normaliser: PathNormaliser; rules: IgnoreRulesRegistry }> {
    this.#ready ??= (async () => {
      await ensureSyncRoot(this.#root);
      const normaliser = await PathNormaliser.forRoot(this.#root);
      const rules = new IgnoreRulesRegistry(normaliser.root, {
        caseInsensitive: normaliser.caseInsensitive,
      });
      return { normaliser, rules };
    })();
    this.#ready.catch(() => (this.#ready = undefined));
    return this.#ready;
  }

  // ---- jobs -------------------------------------------------------------------------------

  #enqueueScan(brandId: string): void {
    this.#scanJobs.enqueue({ brandId }, { key: scanKey(brandId), brandId });
  }

  #enqueueUpload(request: UploadRequest): void {
    this.#uploads.enqueue(request, {
      key: uploadKey(request.brandId, request.sha256),
      brandId: request.brandId,
    });
  }

  #enqueueLogo(brandId: string): void {
    this.#logos.enqueue({ brandId }, { key: logoKey(brandId), brandId, priority: 1 });
  }
}

/** Whether `dir` is a folder now (a missing or unreadable one is not). */
function isDirectory(dir: string): boolean {
  return statNow(dir)?.isDirectory() === true;
}

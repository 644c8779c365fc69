// The Library mirror as an engine feature. Every complete brand listing (sync pass, start-up)
// enqueues one sync per brand the service still has, keyed per brand so that a Library is
// never synced twice at once: a full pass when one is due (setting), else a refresh that
// stops at the first page of known items, so an unchanged Library costs one request.
// `run` also refreshes the known Libraries on a timer (setting).
import { count } from '../core/plural.ts';
import { z } from 'zod';
import type { EngineFeature, EngineParts, FeatureFactory, FeatureReport } from '../core/engine.ts';
import { brandDisplayName, defineSetting } from '../store/index.ts';
import type { Brand } from '../store/index.ts';
import { UPLOAD_KIND } from '../folder-sync/file-keys.ts';
import { LibraryMirror } from './library-mirror.ts';
import type { MirrorResult } from './library-mirror.ts';
import { clientPageSource } from './library-page-source.ts';
import {
  librarySyncJob,
  librarySyncJobKind,
  librarySyncKey,
  type LibrarySyncPayload,
  type LibrarySyncResult,
} from './library-sync-job.ts';

export const libraryRefreshIntervalSetting = defineSetting(
  'library.refreshIntervalMs',
  z.number().int().min(60_000),
  15 * 60 * 1000,
  'How often the running engine looks for new items in every Library (one request per unchanged Library).',
);

export interface LibraryFeatureOptions {
  /** Items per request (default 100, the service's maximum). */
  pageSize?: number;
}

/** One brand's part of a sync report. */
export interface LibraryReportEntry {
  brandId: string;
  name: string;
  outcome: 'changed' | 'unchanged' | 'skipped' | 'failed';
  /** Whether a full pass ran (removals were then detected). */
  fullPass: boolean;
  requests: number;
  new: number;
  changed: number;
  removed: number;
  /** Items in the mirror now (removed ones not counted). */
  items: number;
}

export interface LibraryReport extends FeatureReport {
  libraries: LibraryReportEntry[];
  /** Library requests of every sync since the report's start. */
  requests: number;
}

interface Outcome {
  at: number;
  brandId: string;
  result: LibrarySyncResult | 'failed';
}

const MAX_OUTCOMES = 10_000;
/** How long after an upload its brand's Library is refreshed (uploads close together share it). */
const REFRESH_AFTER_UPLOAD_MS = 1500;
/** Unchanged Libraries named one by one up to this many; beyond, only counted. */
const UNCHANGED_NAMED = 5;

export function libraryFeatureWith(options: LibraryFeatureOptions = {}): FeatureFactory {
  return (parts) => createLibraryFeature(parts, options);
}

/** The feature with its defaults, for `defaultFeatures`. */
export const librarySync: FeatureFactory = libraryFeatureWith();

function createLibraryFeature(parts: EngineParts, options: LibraryFeatureOptions): EngineFeature {
  const { store, queue, events } = parts;
  const mirror = new LibraryMirror({
    store,
    source: clientPageSource(parts.client),
    now: parts.now,
    ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
  });
  const handle = queue.register(
    librarySyncJobKind,
    librarySyncJob(mirror, {
      deletedRemotely: (brandId) => store.brands.get(brandId)?.deletedRemotely === true,
    }),
  );
  const outcomes: Outcome[] = [];
  const record = (outcome: Outcome): void => {
    outcomes.push(outcome);
    if (outcomes.length > MAX_OUTCOMES) outcomes.splice(0, outcomes.length - MAX_OUTCOMES);
  };
  const enqueue = (brands: readonly Brand[]): void => {
    for (const brand of brands) {
      if (brand.deletedRemotely) continue;
      handle.enqueue(
        { brandId: brand.id, mode: mirror.modeFor(brand.id) },
        librarySyncKey(brand.id),
      );
    }
  };
  let timer: NodeJS.Timeout | undefined;
  // After an upload the Library shows the new item within seconds: one refresh per brand, a
  // little later so that a burst of uploads shares it (the key keeps it to one queued job),
  // and a queued job, so a sync pass waits for it. An unchanged Library is still one page.
  // A refresh asked for while the brand's sync runs: that run may have read the first page
  // already, so one more follows it: at once when it was asked for at once, else as an
  // upload's is (while a burst of uploads goes on, a little later: back to back, a burst of
  // 1,000 uploads drew some 70 refreshes, each a job and a page or two of durable writes).
  const again = new Map<string, 'now' | 'after-upload'>();
  // The refresh each brand has queued: while it waits, asking again would find it and change
  // nothing (same key, same priority), yet cost a durable commit. A burst of 1,000 uploads
  // asks once, not 1,000 times; one read of the job by its id tells that it still waits.
  const waiting = new Map<string, number>();
  const refreshSoon = (brandId: string, delayMs: number): void => {
    const at = parts.now() + delayMs;
    const queued = waiting.get(brandId);
    if (queued !== undefined) {
      const job = store.jobs.stateOf(queued);
      if (job?.state === 'queued' && job.nextRunAt <= at) return;
    }
    const brand = store.brands.get(brandId);
    if (brand === undefined || brand.deletedRemotely) return;
    const { job, created } = handle.enqueue(
      { brandId, mode: mirror.modeFor(brandId) },
      { ...librarySyncKey(brandId), runAt: at },
    );
    if (job.state === 'queued') waiting.set(brandId, job.id);
    else waiting.delete(brandId);
    if (!created && job.state === 'running' && again.get(brandId) !== 'now')
      again.set(brandId, delayMs === 0 ? 'now' : 'after-upload');
  };
  // While more uploads wait, a little later, so that the burst shares one refresh; after the
  // last one, now (a waiting refresh is brought forward): a `sync --once` that waits for it
  // is not held for the delay after its last upload.
  // Uploads still running here answer without a read of the jobs (one a finished upload).
  const refreshAfterUpload = (brandId: string): void =>
    refreshSoon(
      brandId,
      queue.runningOf(UPLOAD_KIND) > 0 || store.jobs.hasActive(UPLOAD_KIND)
        ? REFRESH_AFTER_UPLOAD_MS
        : 0,
    );

  const offs = [
    // Synchronous on purpose: the jobs exist before the listing's job ends, so a sync pass
    // waiting for the queue to settle waits for them too. `brands` holds only the brands
    // the service still lists: those deleted there are skipped.
    events.on('brands:refreshed', ({ brands }) => enqueue(brands)),
    queue.events.on('job:done', ({ job }) => {
      if (job.kind === UPLOAD_KIND && job.brandId !== null) refreshAfterUpload(job.brandId);
      if (job.kind !== librarySyncJobKind) return;
      const result = job.result as LibrarySyncResult | null;
      if (result !== null) record({ at: parts.now(), brandId: result.brandId, result });
      if (result !== null && 'inserted' in result) {
        events.emit('library:changed', {
          brandId: result.brandId,
          added: result.addedIds ?? [],
          removed: result.removedIds ?? [],
          // Anything not known one by one makes a shown Library read again.
          changed:
            result.updated +
            (result.removedIds === null ? result.removed : 0) +
            (result.addedIds === null ? result.inserted : 0),
        });
      }
      const brandId = brandIdOf(job.payload, job.brandId);
      const follow = again.get(brandId);
      again.delete(brandId);
      if (follow === 'now') refreshSoon(brandId, 0);
      else if (follow === 'after-upload') refreshAfterUpload(brandId);
    }),
    events.on('library:refresh-wanted', ({ brandId }) => refreshSoon(brandId, 0)),
    queue.events.on('job:failed', ({ job }) => {
      if (job.kind !== librarySyncJobKind) return;
      record({ at: parts.now(), brandId: brandIdOf(job.payload, job.brandId), result: 'failed' });
    }),
  ];

  return {
    name: 'library',
    // Nothing of its own: the core's brand listing, which every reconcile enqueues, ends
    // with 'brands:refreshed', and that enqueues the Library of every listed brand.
    start() {
      const every = store.settings.read(libraryRefreshIntervalSetting);
      timer = setInterval(() => enqueue(store.brands.list()), every);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
      for (const off of offs) off();
    },
    describe(job) {
      if (job.kind !== librarySyncJobKind) return undefined;
      return { area: 'library', subject: nameOf(brandIdOf(job.payload, job.brandId)) };
    },
    report(since): LibraryReport {
      const libraries = summarize(outcomes.filter((o) => o.at >= since));
      return {
        summary: summaryLines(libraries),
        libraries,
        requests: libraries.reduce((n, l) => n + l.requests, 0),
      };
    },
  };

  function nameOf(brandId: string): string {
    const brand = store.brands.get(brandId);
    return brand === undefined ? brandId : brandDisplayName(brand);
  }

  /** One entry per brand, its runs since the report's start added up. */
  function summarize(recent: readonly Outcome[]): LibraryReportEntry[] {
    const byBrand = new Map<string, LibraryReportEntry>();
    for (const { brandId, result } of recent) {
      let entry = byBrand.get(brandId);
      if (entry === undefined) {
        entry = {
          brandId,
          name: nameOf(brandId),
          outcome: 'unchanged',
          fullPass: false,
          requests: 0,
          new: 0,
          changed: 0,
          removed: 0,
          items: store.library.count(brandId),
        };
        byBrand.set(brandId, entry);
      }
      if (result === 'failed') entry.outcome = 'failed';
      else if ('skipped' in result) entry.outcome = 'skipped';
      else addRun(entry, result);
    }
    return [...byBrand.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}

function addRun(entry: LibraryReportEntry, result: MirrorResult): void {
  entry.fullPass ||= result.fullPass;
  entry.requests += result.requests;
  entry.new += result.inserted;
  entry.changed += result.updated;
  entry.removed += result.removed;
  if (entry.outcome === 'unchanged' && result.inserted + result.updated + result.removed > 0)
    entry.outcome = 'changed';
}

/** "Library of Acme: 3 new items (120 in all)"; unchanged Libraries share one line. */
function summaryLines(libraries: readonly LibraryReportEntry[]): string[] {
  const lines: string[] = [];
  const unchanged: LibraryReportEntry[] = [];
  for (const l of libraries) {
    if (l.outcome === 'unchanged') unchanged.push(l);
    else if (l.outcome === 'skipped')
      lines.push(`Library of ${l.name}: skipped, the brand was deleted on the service.`);
    else if (l.outcome === 'failed') lines.push(`Library of ${l.name}: not synced (see below).`);
    else {
      const parts = [
        l.new > 0 ? count(l.new, 'new item') : '',
        l.changed > 0 ? `${l.changed} changed` : '',
        l.removed > 0 ? `${l.removed} removed` : '',
      ].filter((p) => p !== '');
      lines.push(`Library of ${l.name}: ${parts.join(', ')} (${l.items} in all).`);
    }
  }
  if (unchanged.length > UNCHANGED_NAMED) {
    lines.push(`Libraries unchanged: ${count(unchanged.length, 'brand')}.`);
  } else if (unchanged.length > 0) {
    const names = unchanged.map((l) => `${l.name} (${count(l.items, 'item')})`).join(', ');
    lines.push(`${unchanged.length === 1 ? 'Library' : 'Libraries'} unchanged: ${names}.`);
  }
  return lines;
}

function brandIdOf(payload: unknown, fallback: string | null): string {
  const brandId = (payload as Partial<LibrarySyncPayload> | null)?.brandId;
  return typeof brandId === 'string' ? brandId : (fallback ?? '');
}

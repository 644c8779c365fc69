// The brand's logo: the newest accepted file in its Logo/ folder. One job per brand takes
// the newest file when it runs (so three logos dropped at once make one upload), sends it
// with PUT /brands/{id}/logo/file, follows the brand through analyzing back to ready, and
// says that the brand's Skill changed. Older files in Logo/ are skipped with the reason.
// The bytes of the current logo are remembered: touching or renaming the logo file sends
// nothing (a new logo costs the brand a new analysis).
import { stat as fsStat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { isApiError } from '../api/index.ts';
import type { ApiClient } from '../api/index.ts';
import { pickNewestLogo } from '../folder-parts/change-detector.ts';
import { classifyFile } from '../folder-parts/file-classifier.ts';
import { sameFileStat, toFileStat } from '../folder-parts/file-stat.ts';
import type { EngineEvents } from '../core/engine-events.ts';
import type { JobContext, JobQueue, RunningJob, TypedEmitter } from '../queue/index.ts';
import { PermanentError } from '../queue/index.ts';
import type { LocalFile, Store } from '../store/index.ts';
import { brandDisplayName } from '../store/index.ts';
import type { BrandDirs } from './brand-dirs.ts';
import type { FilePipeline } from './file-pipeline.ts';
import {
  isLogoPath,
  isPending,
  LOGO_KIND,
  matchesRow,
  OLDER_LOGO,
  toFileRecord,
} from './file-keys.ts';
import type { SyncJournal } from './sync-journal.ts';

export const LogoPayload = z.object({ brandId: z.string().min(1) });
export type LogoPayload = z.infer<typeof LogoPayload>;

/** What the brand's logo is now, as far as this machine set it. */
const CurrentLogo = z.object({ sha256: z.string(), relPath: z.string(), at: z.number() });
type CurrentLogo = z.infer<typeof CurrentLogo>;
const currentLogoKey = (brandId: string) => `folderSync.currentLogo.${brandId}`;

export type LogoOutcome =
  | { status: 'set'; relPath: string; brandStatus: string | null }
  | { status: 'current'; relPath: string | null }
  /** The newest file is still being written or checked: its own step queues this again. */
  | { status: 'settling'; relPath: string };

export interface LogoJobDeps {
  store: Store;
  client: ApiClient;
  queue: JobQueue;
  events: TypedEmitter<EngineEvents>;
  brandDirs: BrandDirs;
  journal: SyncJournal;
  pipeline: () => FilePipeline;
}

// Each round sets at most one logo; more rounds only when newer logos keep arriving.
const MAX_ROUNDS = 5;

export function registerLogoJob(deps: LogoJobDeps) {
  return deps.queue.register<LogoPayload>(LOGO_KIND, {
    payload: LogoPayload,
    concurrency: 1,
    maxAttempts: 8,
    run: (job, ctx) => runLogo(deps, job, ctx),
    onFailed(job, error) {
      const fileId = job.facts.fileId;
      if (typeof fileId !== 'number') return;
      const row = deps.store.files.get(fileId);
      if (row === undefined || !isPending(row)) return;
      deps.store.files.setState(row.id, 'failed', {
        reason: error.message,
        lastError: error.code,
        nextRetryAt: error.retryable ? Date.now() : null,
      });
      deps.journal.add({
        type: 'failed',
        brandId: row.brandId,
        folder: deps.brandDirs.brand(row.brandId)?.folderName ?? row.brandId,
        path: row.relPath,
        code: error.code,
        reason: error.message,
        willRetry: error.retryable,
      });
    },
  });
}

/** The rows of Logo/ that are, or may become, the logo. */
export function logoRows(store: Store, brandId: string): LocalFile[] {
  const out: LocalFile[] = [];
  for (const state of ['waiting', 'uploading', 'uploaded'] as const) {
    for (let afterId = 0; ;) {
      const page = store.files.list({ brandId, state, afterId, limit: 5000 });
      out.push(...page.filter((f) => isLogoPath(f.relPath)));
      if (page.length < 5000) break;
      afterId = (page[page.length - 1] as LocalFile).id;
    }
  }
  return out;
}

async function runLogo(
  deps: LogoJobDeps,
  job: RunningJob<LogoPayload>,
  ctx: JobContext,
): Promise<LogoOutcome> {
  const { store, client } = deps;
  const { brandId } = job.payload;
  const brand = deps.brandDirs.brand(brandId);
  if (brand === undefined) {
    throw new PermanentError(
      'BRAND_NOT_LINKED',
      `Brand ${brandId} has no folder here any more (deleted on the service?): no logo was sent.`,
    );
  }
  // A run that set the logo and was stopped while the brand analysed it: follow it first.
  if (ctx.facts.analyzing === true) {
    await followAnalysis(deps, brandId, ctx);
  }
  let last: LogoOutcome = { status: 'current', relPath: null };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const rows = logoRows(store, brandId);
    const newestRecord = pickNewestLogo(rows.map(toFileRecord));
    const newest = rows.find((r) => r.pathKey === newestRecord?.pathKey);
    if (newest === undefined || newest.state === 'uploaded') {
      skipOlder(deps, rows, newest);
      return { status: 'current', relPath: newest?.relPath ?? null };
    }
    if (newest.sha256 === null) return { status: 'settling', relPath: newest.relPath };
    const current = store.settings.get<CurrentLogo | null>(
      currentLogoKey(brandId),
      CurrentLogo.nullable(),
      null,
    );
    if (current?.sha256 === newest.sha256) {
      // The logo already has these bytes (a touch, a rename): nothing is sent.
      store.transaction(() => {
        store.files.setState(newest.id, 'uploaded', {
          imageId: null,
          existing: true,
          bytesSent: 0,
          reason: null,
          lastError: null,
          nextRetryAt: null,
        });
        skipOlder(deps, rows, newest);
      });
      return { status: 'current', relPath: newest.relPath };
    }
    const folder = await deps.brandDirs.currentFolder(brandId);
    if (folder === null) return { status: 'settling', relPath: newest.relPath };
    const absPath = await deps.brandDirs.locate(folder, newest.relPath);
    const before = absPath === null ? null : await fsStat(absPath).catch(() => null);
    const classified = absPath === null ? null : await classifyFile(absPath, 'logo');
    if (
      absPath === null ||
      before === null ||
      !matchesRow(newest, toFileStat(before)) ||
      classified?.status !== 'accepted' ||
      !sameFileStat(classified.stat, toFileStat(before))
    ) {
      // Changed since it was hashed, or gone: the pipeline takes it again and queues this.
      await deps.pipeline().resubmit(brandId, newest.relPath);
      return { status: 'settling', relPath: newest.relPath };
    }
    ctx.remember({ fileId: newest.id });
    store.files.setState(newest.id, 'uploading', { bytesSent: 0, reason: null });
    ctx.progress(0, before.size);
    let brandStatus: string | null;
    try {
      const answer = await client.uploadLogo(
        brandId,
        { path: absPath, fileName: path.posix.basename(newest.relPath), mimeType: classified.mime },
        {
          signal: ctx.signal,
          onProgress: (p) => ctx.progress(Math.min(p.transferred, before.size), before.size),
        },
      );
      brandStatus = answer.status;
    } catch (error) {
      backToWaiting(store, newest.id);
      if (isApiError(error) && error.code === 'BRAND_NOT_READY') {
        // The brand is being analysed (created, or an earlier logo): set it once ready.
        const settled = await client.waitForBrand(brandId, { signal: ctx.signal });
        store.brands.upsertFromService(settled);
        if (settled.status !== 'ready') {
          throw new PermanentError(
            'BRAND_NOT_READY',
            `The brand is ${settled.status}; a logo can be set once it is ready.`,
          );
        }
        continue;
      }
      throw error;
    }
    const after = await fsStat(absPath).catch(() => null);
    if (after === null || !sameFileStat(toFileStat(before), toFileStat(after))) {
      // Written to during the send: what the service got may not be these bytes.
      backToWaiting(store, newest.id);
      await deps.pipeline().resubmit(brandId, newest.relPath);
      return { status: 'settling', relPath: newest.relPath };
    }
    ctx.remember({ analyzing: true });
    store.transaction(() => {
      store.settings.set(currentLogoKey(brandId), {
        sha256: newest.sha256,
        relPath: newest.relPath,
        at: Date.now(),
      });
      store.files.markUploaded(newest.id, { imageId: null, existing: false });
      skipOlder(deps, logoRows(store, brandId), newest);
    });
    deps.journal.add({
      type: 'logo',
      brandId,
      folder,
      path: newest.relPath,
      status: brandStatus,
    });
    deps.events.emit('notice', {
      level: 'info',
      code: 'LOGO_SET',
      brandId,
      message: `The logo of "${brandDisplayName(brand)}" is now ${folder}/${newest.relPath}; the brand is being analysed again.`,
    });
    brandStatus = await followAnalysis(deps, brandId, ctx);
    last = { status: 'set', relPath: newest.relPath, brandStatus };
  }
  return last;
}

/** Waits until the brand leaves analyzing, stores it, and says its Skill may have changed. */
async function followAnalysis(
  deps: LogoJobDeps,
  brandId: string,
  ctx: JobContext,
): Promise<string | null> {
  const settled = await deps.client.waitForBrand(brandId, { signal: ctx.signal });
  const stored = deps.store.brands.upsertFromService(settled);
  ctx.remember({ analyzing: null });
  if (settled.status === 'failed') {
    deps.events.emit('notice', {
      level: 'error',
      code: settled.failure?.code ?? 'BRAND_FAILED',
      brandId,
      message: `The analysis of "${brandDisplayName(stored)}" after its new logo failed: ${settled.failure?.message ?? 'no reason given'}.`,
    });
  }
  deps.events.emit('brand:skill-changed', { brandId, reason: 'logo' });
  return settled.status;
}

/** Accepted files of Logo/ older than the logo are skipped, with the reason. */
function skipOlder(deps: LogoJobDeps, rows: LocalFile[], newest: LocalFile | undefined): void {
  for (const row of rows) {
    if (row.id === newest?.id || row.sha256 === null || !isPending(row)) continue;
    const reason = newest
      ? `Not the newest file in Logo/: "${newest.relPath}" is the logo`
      : 'Not the newest file in Logo/';
    deps.store.files.setState(row.id, 'skipped', { reason, lastError: OLDER_LOGO, bytesSent: 0 });
    deps.journal.add({
      type: 'skipped',
      brandId: row.brandId,
      folder: deps.brandDirs.brand(row.brandId)?.folderName ?? row.brandId,
      path: row.relPath,
      code: OLDER_LOGO,
      reason,
    });
  }
}

function backToWaiting(store: Store, fileId: number): void {
  const row = store.files.get(fileId);
  if (row !== undefined && isPending(row))
    store.files.setState(row.id, 'waiting', { bytesSent: 0 });
}

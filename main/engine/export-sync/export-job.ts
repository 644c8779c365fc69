// The job that brings one brand's latest Brand Skill to disk: request an export, wait until
// it is ready or failed (a `failure.retryable` export is requested again, a bounded number of
// times), and when its skillId is not the one on disk, download, check and install it.
// 409 BRAND_SKILL_UNAVAILABLE ends the job as done: the brand has nothing to export yet.
import { count } from '../core/plural.ts';
import { z } from 'zod';
import { isApiError } from '../api/index.ts';
import type { BrandExport } from '../api/index.ts';
import type { EngineParts } from '../core/engine.ts';
import { readInstalledSkill } from '../export-parts/skill-install.ts';
import { skillLayout } from '../export-parts/skill-layout.ts';
import { PermanentError } from '../queue/index.ts';
import type { EnqueueOptions, JobContext, JobKindHandle } from '../queue/index.ts';
import { brandDisplayName } from '../store/index.ts';
import type { Brand } from '../store/index.ts';
import { brandFolderFor } from './brand-dir.ts';
import { skillKeepVersionsSetting } from './settings.ts';
import { deliverSkill, discardDownload, type DeliveryProgress } from './skill-delivery.ts';

export const exportSyncKind = 'export.sync';
/** The job fact naming the Skill version the run requested (set once its export settled). */
export const SKILL_FACT = 'skillId';
/** Temp files of export downloads start with this (then the brand ID). */
export const EXPORT_DOWNLOAD_PREFIX = 'export-';

export const ExportSyncPayload = z.object({
  brandId: z.string().min(1),
  /** What asked for it: reconcile, periodic, ready, logo, edit, cli, … (for the log). */
  reason: z.string().default('reconcile'),
});
export type ExportSyncPayload = z.infer<typeof ExportSyncPayload>;

export type ExportOutcome = 'installed' | 'unchanged' | 'unavailable';

/** The job's result (stored with the job; the CLI prints it). */
export interface ExportSyncResult {
  outcome: ExportOutcome;
  brandId: string;
  brandName: string;
  skillId: string | null;
  exportId: string | null;
  /** `Brand Skill/` of the brand. */
  path: string | null;
  files: number | null;
  bytes: number | null;
  message: string;
}

export interface ExportJobOptions {
  /** Export requests per run while failures say `retryable` (default 3). */
  maxRequests?: number;
  /** Least time between two polls of a preparing export (client default when unset). */
  pollIntervalMs?: number;
  /** Each step of the download and install (tests stop the process at exact moments). */
  onProgress?: (brandId: string, progress: DeliveryProgress) => void;
}

export function exportSyncKey(brandId: string): EnqueueOptions {
  return { key: `${exportSyncKind}:${brandId}`, brandId };
}

export function registerExportSync(
  parts: EngineParts,
  options: ExportJobOptions = {},
): JobKindHandle<ExportSyncPayload> {
  // Brands told "no exportable Skill yet" in this process: told once, not at every check.
  const toldUnavailable = new Set<string>();
  return parts.queue.register(exportSyncKind, {
    payload: ExportSyncPayload,
    // Two brands at once: one may wait for its export while the other downloads.
    concurrency: 2,
    maxAttempts: 4,
    async run(job, ctx): Promise<ExportSyncResult> {
      const result = await syncBrandSkill(parts, options, job.payload.brandId, ctx);
      // Nothing to install after all (a crash came after the install): no temp file stays.
      if (result.outcome !== 'installed') await discardDownload(ctx, parts.dataDir);
      if (result.outcome === 'unavailable') {
        if (!toldUnavailable.has(result.brandId)) {
          toldUnavailable.add(result.brandId);
          parts.events.emit('notice', {
            level: 'info',
            code: 'BRAND_SKILL_UNAVAILABLE',
            brandId: result.brandId,
            message: result.message,
          });
        }
      } else {
        toldUnavailable.delete(result.brandId);
      }
      if (result.outcome === 'installed') {
        parts.events.emit('notice', {
          level: 'info',
          code: 'BRAND_SKILL_INSTALLED',
          brandId: result.brandId,
          message: result.message,
        });
      }
      return result;
    },
  });
}

async function syncBrandSkill(
  parts: EngineParts,
  options: ExportJobOptions,
  brandId: string,
  ctx: JobContext,
): Promise<ExportSyncResult> {
  const { store, client } = parts;
  const brand = await knownBrand(parts, brandId, ctx.signal);
  const name = brandDisplayName(brand);
  const brandDir = await brandFolderFor(parts, brand);
  const live = skillLayout(brandDir).live;
  const onDisk = await readInstalledSkill(brandDir);
  const base = { brandId, brandName: name, files: null, bytes: null };

  let settled: BrandExport;
  try {
    settled = await client.exportAndWait(brandId, {
      signal: ctx.signal,
      maxRequests: options.maxRequests ?? 3,
      ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
    });
  } catch (error) {
    if (isApiError(error) && error.code === 'BRAND_SKILL_UNAVAILABLE') {
      return {
        ...base,
        outcome: 'unavailable',
        skillId: onDisk?.skillId ?? null,
        exportId: null,
        path: onDisk === null ? null : live,
        message: `Brand "${name}" has no exportable Skill yet; its Brand Skill/ folder is filled once the service has one.`,
      };
    }
    throw error;
  }
  const record = store.exports.upsertFromService(brandId, settled);
  // Which Skill this run deals with, for whoever reads the job's end (done or failed).
  ctx.remember({ [SKILL_FACT]: settled.skillId });
  if (settled.status === 'failed') throw exportFailed(name, settled, options.maxRequests ?? 3);
  if (settled.status !== 'ready') {
    throw new PermanentError(
      'EXPORT_UNKNOWN_STATUS',
      `The export of brand "${name}" ended in status "${settled.status}", which Brand Sync does not know; nothing was downloaded.`,
    );
  }
  if (onDisk?.skillId === settled.skillId) {
    if (record.installedAt === null) store.exports.markInstalled(record.id, live);
    return {
      ...base,
      outcome: 'unchanged',
      skillId: settled.skillId,
      exportId: settled.id,
      path: live,
      files: onDisk.files.length,
      bytes: onDisk.totalBytes,
      message: `Brand Skill of "${name}" is up to date (Skill ${settled.skillId}).`,
    };
  }
  const url = settled.download?.url;
  if (!url) {
    throw new PermanentError(
      'EXPORT_WITHOUT_DOWNLOAD',
      `The export of brand "${name}" is ready but carries no download URL; nothing was downloaded.`,
    );
  }
  const installed = await deliverSkill({
    client,
    ctx,
    dataDir: parts.dataDir,
    brandDir,
    skillId: settled.skillId,
    owner: `${EXPORT_DOWNLOAD_PREFIX}${brandId}`,
    source: { kind: 'url', url },
    keepVersions: store.settings.read(skillKeepVersionsSetting),
    onProgress: (p) => options.onProgress?.(brandId, p),
  });
  store.exports.markInstalled(record.id, live);
  return {
    ...base,
    outcome: 'installed',
    skillId: installed.skillId,
    exportId: settled.id,
    path: live,
    files: installed.files.length,
    bytes: installed.totalBytes,
    message: `Brand Skill of "${name}" updated to Skill ${installed.skillId} (${count(installed.files.length, 'file')}).`,
  };
}

/** The brand from the store; one the store has not seen yet (`exports sync ID`) is fetched. */
async function knownBrand(
  parts: EngineParts,
  brandId: string,
  signal: AbortSignal,
): Promise<Brand> {
  const stored = parts.store.brands.get(brandId);
  if (stored !== undefined) return stored;
  const record = await parts.client.getBrand(brandId, { signal });
  return parts.store.brands.upsertFromService(record);
}

function exportFailed(name: string, exp: BrandExport, maxRequests: number): PermanentError {
  const failure = exp.failure;
  const detail = [failure?.code, failure?.message].filter(Boolean).join(': ');
  const why = detail === '' ? '' : ` (${detail})`;
  if (failure?.retryable === true) {
    return new PermanentError(
      'EXPORT_FAILED',
      `The export of brand "${name}" failed ${maxRequests} times${why}; the service says it may work later, so the next check asks again. The current Brand Skill/ stays.`,
      { data: { exportId: exp.id, skillId: exp.skillId, retryable: true } },
    );
  }
  return new PermanentError(
    'EXPORT_FAILED',
    `The service cannot export brand "${name}"${why}. The current Brand Skill/ stays.`,
    { data: { exportId: exp.id, skillId: exp.skillId, retryable: false } },
  );
}

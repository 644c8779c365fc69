// The job that follows one beta Brand Skill job: poll it until completed or failed, then
// store its ZIP (a download URL or inline base64) like an export, in the brand's folder's
// `Brand Skill/`. The beta brandId is usually not a /brands brand: its folder is then one of
// its own under the sync root, named from brandName and linked by the usual marker.
import { count } from '../core/plural.ts';
import path from 'node:path';
import { z } from 'zod';
import { isApiError, isUuid } from '../api/index.ts';
import type { BrandSkill } from '../api/index.ts';
import type { EngineParts } from '../core/engine.ts';
import { readInstalledSkill } from '../export-parts/skill-install.ts';
import { skillLayout } from '../export-parts/skill-layout.ts';
import {
  brandFolderFor,
  deliverSkill,
  discardDownload,
  skillKeepVersionsSetting,
  type DeliveryProgress,
  type SkillSource,
} from '../export-sync/index.ts';
import { PermanentError } from '../queue/index.ts';
import type { EnqueueOptions, JobKindHandle } from '../queue/index.ts';
import { getTracked, GONE_STATUS, updateTracked, type TrackedSkill } from './tracked-skills.ts';

export const brandSkillSyncKind = 'brand-skill.sync';
/** Temp files of beta ZIP downloads start with this (then the beta ID). */
export const BETA_DOWNLOAD_PREFIX = 'beta-';

export const BrandSkillSyncPayload = z.object({ id: z.string().min(1) });
export type BrandSkillSyncPayload = z.infer<typeof BrandSkillSyncPayload>;

export type BrandSkillOutcome = 'installed' | 'unchanged' | 'untracked';

export interface BrandSkillSyncResult {
  outcome: BrandSkillOutcome;
  id: string;
  brandId: string | null;
  brandName: string | null;
  skillId: string | null;
  /** `Brand Skill/` it was installed into. */
  path: string | null;
  files: number | null;
  message: string;
}

export interface BrandSkillJobOptions {
  pollIntervalMs?: number;
  onProgress?: (id: string, progress: DeliveryProgress) => void;
}

export function brandSkillSyncKey(id: string): EnqueueOptions {
  return { key: `${brandSkillSyncKind}:${id.toLowerCase()}` };
}

export function registerBrandSkillSync(
  parts: EngineParts,
  options: BrandSkillJobOptions = {},
): JobKindHandle<BrandSkillSyncPayload> {
  return parts.queue.register(brandSkillSyncKind, {
    payload: BrandSkillSyncPayload,
    // A beta build takes minutes: two may be waited for at once.
    concurrency: 2,
    maxAttempts: 4,
    async run(job, ctx): Promise<BrandSkillSyncResult> {
      const { store, client } = parts;
      const id = job.payload.id.toLowerCase();
      const untracked = (): BrandSkillSyncResult => ({
        outcome: 'untracked',
        id,
        brandId: null,
        brandName: null,
        skillId: null,
        path: null,
        files: null,
        message: `Beta Brand Skill ${id} is no longer tracked; nothing was done.`,
      });
      if (getTracked(store, id) === undefined) return untracked();

      let seen: BrandSkill;
      try {
        seen = await client.waitForBrandSkill(id, {
          signal: ctx.signal,
          ...(options.pollIntervalMs === undefined
            ? {}
            : { pollIntervalMs: options.pollIntervalMs }),
          onUpdate: (update) => void updateTracked(store, id, fromService(update)),
        });
      } catch (error) {
        if (isApiError(error) && error.status === 404) {
          updateTracked(store, id, { status: GONE_STATUS });
          throw new PermanentError(
            error.code,
            `Beta Brand Skill ${id} does not exist on the service (deleted, or another account's); it is no longer polled.`,
          );
        }
        throw error;
      }
      const record = updateTracked(store, id, fromService(seen));
      if (record === undefined) return untracked();
      const name = record.brandName ?? id;
      if (seen.status === 'failed') {
        const failure = record.failure;
        const detail = [failure?.code, failure?.message].filter(Boolean).join(': ');
        throw new PermanentError(
          failure?.code ?? 'BRAND_SKILL_FAILED',
          `Beta Brand Skill "${name}" failed on the service${detail ? ` (${detail})` : ''}; create the brand again with brands create.`,
        );
      }
      if (seen.status !== 'completed') {
        throw new PermanentError(
          'BRAND_SKILL_UNKNOWN_STATUS',
          `Beta Brand Skill "${name}" ended in status "${seen.status}", which Brand Sync does not know; nothing was stored.`,
        );
      }
      const source = zipSource(seen);
      if (source === null) {
        throw new PermanentError(
          'BRAND_SKILL_WITHOUT_ZIP',
          `Beta Brand Skill "${name}" is completed but its answer carries no ZIP; nothing was stored.`,
        );
      }
      // The folder is the brand's own (a /brands brand, rarely), else one named from brandName.
      const folderBrand = {
        id: record.brandId !== null && isUuid(record.brandId) ? record.brandId : id,
        name: record.brandName,
      };
      const brandDir = await brandFolderFor(parts, folderBrand);
      const live = skillLayout(brandDir).live;
      const skillId = record.skillId ?? id;
      const base = {
        id,
        brandId: record.brandId,
        brandName: record.brandName,
        skillId,
        path: live,
      };
      const onDisk = await readInstalledSkill(brandDir);
      if (onDisk?.skillId === skillId) {
        await discardDownload(ctx, parts.dataDir); // a crash came after the install
        updateTracked(store, id, installedPatch(brandDir, skillId, store.now()));
        return {
          ...base,
          outcome: 'unchanged',
          files: onDisk.files.length,
          message: `Beta Brand Skill "${name}" is already on disk.`,
        };
      }
      const installed = await deliverSkill({
        client,
        ctx,
        dataDir: parts.dataDir,
        brandDir,
        skillId,
        owner: `${BETA_DOWNLOAD_PREFIX}${id}`,
        source,
        keepVersions: store.settings.read(skillKeepVersionsSetting),
        onProgress: (p) => options.onProgress?.(id, p),
      });
      updateTracked(store, id, installedPatch(brandDir, skillId, store.now()));
      const message = `Beta Brand Skill "${name}" stored in ${path.basename(brandDir)}/Brand Skill (${count(installed.files.length, 'file')}).`;
      parts.events.emit('notice', {
        level: 'info',
        code: 'BRAND_SKILL_INSTALLED',
        ...(record.brandId ? { brandId: record.brandId } : {}),
        message,
      });
      return { ...base, outcome: 'installed', files: installed.files.length, message };
    },
  });
}

/** The fields of a beta job record beyond the documented ones, read leniently. */
export function betaFields(job: BrandSkill): {
  brandName: string | null;
  skillId: string | null;
  failure: { code: string | null; message: string | null } | null;
} {
  const raw = job as BrandSkill & Record<string, unknown>;
  const failure = raw.failure as { code?: unknown; message?: unknown } | null | undefined;
  return {
    brandName: typeof raw.brandName === 'string' ? raw.brandName : null,
    skillId: typeof raw.skillId === 'string' ? raw.skillId : null,
    failure:
      failure && typeof failure === 'object'
        ? {
            code: typeof failure.code === 'string' ? failure.code : null,
            message: typeof failure.message === 'string' ? failure.message : null,
          }
        : null,
  };
}

function fromService(job: BrandSkill): Partial<TrackedSkill> {
  const { brandName, skillId, failure } = betaFields(job);
  return {
    status: job.status,
    ...(job.brandId ? { brandId: job.brandId } : {}),
    ...(brandName === null ? {} : { brandName }),
    ...(skillId === null ? {} : { skillId }),
    failure,
  };
}

/** assumed (docs/service.md, The beta Skill's ZIP): the completed answer's `zip` is `{url}` or `{contentBase64}`. */
function zipSource(job: BrandSkill): SkillSource | null {
  if (job.zip?.url) return { kind: 'url', url: job.zip.url };
  if (job.zip?.contentBase64) return { kind: 'base64', content: job.zip.contentBase64 };
  return null;
}

function installedPatch(brandDir: string, skillId: string, at: number): Partial<TrackedSkill> {
  return { folderName: path.basename(brandDir), installedSkillId: skillId, installedAt: at };
}

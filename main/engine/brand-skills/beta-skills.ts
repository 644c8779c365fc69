// What the user does with beta Brand Skill jobs (`skills add|show|delete`): track one by its
// beta ID, look at it, delete it on the service. The folder it was stored in is kept.
import { isUuid } from '../api/index.ts';
import type { ApiClient, BrandSkill } from '../api/index.ts';
import type { JobQueue } from '../queue/index.ts';
import type { JobRecord, Store } from '../store/index.ts';
import { brandSkillSyncKey, brandSkillSyncKind } from './beta-skill-job.ts';
import { getTracked, trackSkill, untrackSkill, type TrackedSkill } from './tracked-skills.ts';

export interface BetaSkillDeps {
  store: Store;
  queue: JobQueue;
  client: ApiClient;
}

export class BetaSkillInputError extends Error {
  readonly code = 'INVALID_BRAND_SKILL_ID';
  constructor(id: string) {
    super(`"${id}" is not a beta Brand Skill ID (a UUID).`);
    this.name = 'BetaSkillInputError';
  }
}

function checkedId(id: string): string {
  const value = id.trim().toLowerCase();
  if (!isUuid(value)) throw new BetaSkillInputError(id);
  return value;
}

/** Tracks the job and enqueues its sync; `job` is the queued (or already active) job. */
export function addBetaSkill(
  deps: Pick<BetaSkillDeps, 'store' | 'queue'>,
  id: string,
): { record: TrackedSkill; added: boolean; job: JobRecord } {
  const key = checkedId(id);
  const { record, added } = trackSkill(deps.store, key);
  const { job } = deps.queue.enqueue(brandSkillSyncKind, { id: key }, brandSkillSyncKey(key));
  return { record, added, job };
}

/** The service's record beside what this machine knows (null when not tracked). */
export async function showBetaSkill(
  deps: Pick<BetaSkillDeps, 'store' | 'client'>,
  id: string,
  signal?: AbortSignal,
): Promise<{ service: BrandSkill; tracked: TrackedSkill | null }> {
  const key = checkedId(id);
  const service = await deps.client.getBrandSkill(key, { signal });
  return { service, tracked: getTracked(deps.store, key) ?? null };
}

/** Deletes the job on the service, stops polling it and forgets it; the folder stays. */
export async function deleteBetaSkill(
  deps: BetaSkillDeps,
  id: string,
  signal?: AbortSignal,
): Promise<{ tracked: TrackedSkill | null }> {
  const key = checkedId(id);
  await deps.client.deleteBrandSkill(key, { signal });
  const active = deps.store.jobs.getActiveByKey(brandSkillSyncKey(key).key as string);
  if (active !== undefined) deps.queue.cancel(active.id);
  return { tracked: untrackSkill(deps.store, key) ?? null };
}

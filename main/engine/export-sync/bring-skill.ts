// Bringing a brand's Brand Skill to disk now (an applied edit, the user's request): the
// export sync's own job, run at once, its outcome in plain words. The CLI and the bridge
// both call this.
import type { Engine } from '../core/engine.ts';
import { runJobNow } from '../queue/index.ts';
import { exportSyncKey, exportSyncKind, type ExportSyncResult } from './export-job.ts';

export interface SkillDelivery {
  /** false: this engine has no export sync (`message` says which command brings the Skill). */
  ran: boolean;
  ok: boolean;
  outcome: string | null;
  skillId: string | null;
  path: string | null;
  message: string;
}

export async function bringSkillNow(
  engine: Engine,
  brandId: string,
  reason: string,
  signal?: AbortSignal,
): Promise<SkillDelivery> {
  if (!engine.features.some((f) => f.name === 'exports')) {
    return {
      ran: false,
      ok: false,
      outcome: null,
      skillId: null,
      path: null,
      message: `Bring the new Brand Skill to disk with: brand-sync exports sync ${brandId}`,
    };
  }
  const outcome = await runJobNow(
    engine.queue,
    exportSyncKind,
    { brandId, reason },
    exportSyncKey(brandId),
    signal ? { signal } : {},
  );
  if (outcome.state === 'done') {
    const result = outcome.job.result as ExportSyncResult;
    return {
      ran: true,
      ok: true,
      outcome: result.outcome,
      skillId: result.skillId,
      path: result.path,
      message: result.message,
    };
  }
  const why =
    outcome.state === 'failed'
      ? `${outcome.error.code}: ${outcome.error.message}`
      : outcome.state === 'halted'
        ? `${outcome.code}: ${outcome.message}`
        : 'the job was cancelled';
  return { ran: true, ok: false, outcome: null, skillId: null, path: null, message: why };
}

// Beta Brand Skills: pending → processing → completed (with its ZIP) | failed. The beta Brand
// ID is its own: it does not appear among /brands (IDs do not transfer between the flows).
import type { BetaJob, Source } from '../model.ts';
import { buildSkillZip, slug } from '../skill-zip.ts';
import type { SimState } from '../state.ts';
import { conventionFailure, failureOf, newSkill } from './brands.ts';
import { nameFromSources } from './profile.ts';

export function createBetaJob(
  state: SimState,
  input: { sources: Source[]; brandName: string | null; instructions: string | null },
): BetaJob {
  const now = state.now();
  const job: BetaJob = {
    id: state.newId(),
    brandId: state.newId(),
    status: 'pending',
    sources: input.sources,
    brandName: input.brandName ?? nameFromSources(input.sources),
    instructions: input.instructions,
    failure: null,
    skillId: null,
    zipPath: null,
    createdAt: now,
    updatedAt: now,
  };
  state.betaJobs.set(job.id, job);
  job.timer = state.after(state.durations.betaPendingMs, () => {
    job.status = 'processing';
    job.updatedAt = state.now();
    state.notify(`beta:${job.id}`);
    job.timer = state.after(state.durations.betaProcessingMs, () =>
      state.track(finishBetaJob(state, job)),
    );
  });
  return job;
}

async function finishBetaJob(state: SimState, job: BetaJob): Promise<void> {
  if (!state.betaJobs.has(job.id)) return;
  const forced = state.outcomes.beta.shift();
  const failCode = forced ? forced.failCode : conventionFailure(state, job.sources);
  if (failCode) {
    job.status = 'failed';
    job.failure = failureOf(failCode);
  } else {
    const skill = newSkill(
      state,
      { id: job.brandId, name: job.brandName, instructions: job.instructions },
      null,
      {},
    );
    const zip = await buildSkillZip(skill);
    job.skillId = skill.id;
    job.zipPath = state.serveFile('skills', {
      content: zip,
      mimeType: 'application/zip',
      fileName: `${slug(skill.profile.name)}-skill.zip`,
    });
    job.status = 'completed';
  }
  job.updatedAt = state.now();
  job.timer = undefined;
  state.notify(`beta:${job.id}`);
}

export function deleteBetaJob(state: SimState, job: BetaJob): void {
  job.timer?.cancel();
  state.betaJobs.delete(job.id);
  if (job.zipPath) state.files.delete(job.zipPath);
  state.notify(`beta:${job.id}`);
}

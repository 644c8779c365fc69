// The beta flow: POST /brand-skills, GET /brand-skills/{id}, DELETE /brand-skills/{id}.
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.ts';
import { noteCreated } from '../context.ts';
import { SimError } from '../errors.ts';
import { waitUntil } from '../http-util.ts';
import type { BetaJob } from '../model.ts';
import { TERMINAL_BETA } from '../model.ts';
import type { SimState } from '../state.ts';
import { isUuid, optionalString, requireObject, waitParams } from '../validate.ts';
import { betaView } from '../views.ts';
import { createBetaJob, deleteBetaJob } from '../work/beta.ts';
import { parseSources } from '../work/sources.ts';
import { idempotent } from './common.ts';

function jobOr404(state: SimState, id: string): BetaJob {
  const job = isUuid(id) ? state.betaJobs.get(id) : undefined;
  if (!job) throw new SimError(404, 'BRAND_SKILL_NOT_FOUND', 'brand skill not found');
  return job;
}

export function registerBetaRoutes(app: FastifyInstance, ctx: SimContext): void {
  const { state } = ctx;

  app.post('/v1/brand-skills', async (request, reply) =>
    idempotent(ctx, request, reply, () => {
      const body = requireObject(request.body);
      const brandName = optionalString(body, 'brandName', 1, 120) ?? null;
      const instructions = optionalString(body, 'instructions', 0, 4000) ?? null;
      const { sources } = parseSources(state, body.sources, 'beta', null);
      const job = createBetaJob(state, { sources, brandName, instructions });
      noteCreated(request, 'brand-skill', job.id);
      return { body: { data: { id: job.id, brandId: job.brandId, status: job.status } } };
    }),
  );

  app.get<{ Params: { id: string } }>('/v1/brand-skills/:id', async (request, reply) => {
    const { wait, timeoutS } = waitParams(request.query as Record<string, unknown>);
    const job = jobOr404(state, request.params.id);
    if (wait) {
      await waitUntil(
        state,
        reply,
        `beta:${job.id}`,
        () => TERMINAL_BETA.has(job.status) || !state.betaJobs.has(job.id),
        timeoutS,
      );
    }
    return { data: betaView(state, jobOr404(state, request.params.id), ctx.betaZipMode) };
  });

  app.delete<{ Params: { id: string } }>('/v1/brand-skills/:id', async (request) => {
    const job = jobOr404(state, request.params.id);
    deleteBetaJob(state, job);
    return { data: { id: job.id, brandId: job.brandId, status: job.status, deleted: true } };
  });
}

// Running one job: the context its handler is given (facts remembered before a request
// leaves, an idempotency key, progress), the handler's call with the crash-loop guard, and
// aborting a run.
import { randomUUID } from 'node:crypto';
import type { Store } from '../store/index.ts';
import { interruptionsOf } from '../store/index.ts';
import { classifyFailure } from './classify-failure.ts';
import type { FailureClass } from './classify-failure.ts';
import { LeaseLostError } from './job-errors.ts';
import type { QueueClock } from './queue-clock.ts';
import type { QueueEvents } from './queue-events.ts';
import type { ActiveRun, AbortReason, JobContext } from './queue-types.ts';
import type { TypedEmitter } from './typed-emitter.ts';

/**
 * Runs that may die with their process before a job counts as a crash loop and fails. Each
 * such run is refunded, so quitting the app mid-job never uses up a job's own attempts.
 */
export const CRASH_LOOP_LIMIT = 10;

export type RunOutcome = { ok: true; result: unknown } | { ok: false; failure: FailureClass };

/** Calls the kind's handler with the parsed payload; never throws: a throw is classified. */
export async function runHandler(run: ActiveRun, ctx: JobContext): Promise<RunOutcome> {
  try {
    if (run.job.cancelRequested) throw new Error('cancel requested before start');
    const interruptions = interruptionsOf(run.job);
    if (interruptions >= CRASH_LOOP_LIMIT) {
      // A job that keeps dying with its worker (a crash loop) is stopped here.
      return {
        ok: false,
        failure: {
          type: 'permanent',
          error: {
            code: 'TOO_MANY_ATTEMPTS',
            message: `Job died with its process ${interruptions} times; giving up (retry it to start over).`,
            kind: 'permanent',
            retryable: false,
          },
        },
      };
    }
    const payload = run.kind.definition.payload.parse(run.job.payload);
    const result = await run.kind.definition.run({ ...run.job, payload }, ctx);
    return { ok: true, result };
  } catch (error) {
    return { ok: false, failure: classifyFailure(error) };
  }
}

export function abortRun(run: ActiveRun, reason: AbortReason): void {
  if (run.abortReason !== null) return;
  run.abortReason = reason;
  run.controller.abort(new Error(`job ${run.job.id}: ${reason}`));
}

export interface JobContextParts {
  store: Store;
  clock: QueueClock;
  events: TypedEmitter<QueueEvents>;
  ownerId: string;
}

export function jobContext(run: ActiveRun, parts: JobContextParts): JobContext {
  const remember = (facts: Record<string, unknown>): void => {
    if (run.abortReason === 'lease-lost') throw new LeaseLostError(run.job.id);
    const merged = parts.store.jobs.remember(run.job.id, parts.ownerId, facts, parts.clock.now());
    if (merged === undefined) {
      abortRun(run, 'lease-lost');
      throw new LeaseLostError(run.job.id);
    }
    run.facts = merged;
  };
  return {
    signal: run.controller.signal,
    attempt: run.job.attempts,
    get facts() {
      return run.facts;
    },
    remember,
    idempotencyKey: (name = 'idempotencyKey') => {
      const existing = run.facts[name];
      if (typeof existing === 'string') return existing;
      const key = randomUUID();
      remember({ [name]: key });
      return key;
    },
    progress: (done, total = null) => {
      run.progress = { done, total };
      parts.events.emit('job:progress', { jobId: run.job.id, kind: run.job.kind, done, total });
    },
  };
}

// Runs one job through the durable queue and waits for its end: for commands that do one
// thing now (`exports sync BRAND`, `skills add ID`) with the same durability as the engine
// (facts, resumable downloads). Ends early when the queue cannot make progress: the account
// is refused, or the service stays unreachable past a grace period.
import { watchQueueHalt } from './queue-halt.ts';
import type { EnqueueOptions, JobQueue } from './job-queue.ts';
import type { JobError, JobRecord } from '../store/index.ts';

export type JobRunOutcome =
  | { state: 'done'; job: JobRecord }
  | { state: 'failed'; job: JobRecord; error: JobError }
  | { state: 'cancelled'; job: JobRecord }
  | { state: 'halted'; code: string; message: string };

export interface RunJobNowOptions {
  signal?: AbortSignal;
  /** How long the service may stay unreachable before giving up (default 15 s). */
  offlineGraceMs?: number;
}

export function runJobNow(
  queue: JobQueue,
  kind: string,
  payload: unknown,
  enqueue: EnqueueOptions,
  options: RunJobNowOptions = {},
): Promise<JobRunOutcome> {
  return new Promise((resolve, reject) => {
    let jobId: number | undefined;
    const offs: (() => void)[] = [];
    const finish = (outcome: JobRunOutcome): void => {
      for (const off of offs) off();
      resolve(outcome);
    };
    offs.push(
      queue.events.on('job:done', ({ job }) => {
        if (job.id === jobId) finish({ state: 'done', job });
      }),
      queue.events.on('job:failed', ({ job, error }) => {
        if (job.id === jobId) finish({ state: 'failed', job, error });
      }),
      queue.events.on('job:cancelled', ({ job }) => {
        if (job.id === jobId) finish({ state: 'cancelled', job });
      }),
    );
    try {
      jobId = queue.enqueue(kind, payload, enqueue).job.id;
      queue.start();
    } catch (error) {
      for (const off of offs) off();
      reject(error);
      return;
    }
    offs.push(
      watchQueueHalt(
        queue,
        { ...options, abortedMessage: 'interrupted; the job stays queued' },
        (halt) => finish({ state: 'halted', ...halt }),
      ),
    );
  });
}

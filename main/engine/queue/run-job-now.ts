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

/** The jobs a command is waiting for right now, per queue (see isCommandJob). */
const commandJobs = new WeakMap<JobQueue, Set<number>>();

/** Whether a command runs `jobId` and waits for its end (its failure is the command's). */
export function isCommandJob(queue: JobQueue, jobId: number): boolean {
  return commandJobs.get(queue)?.has(jobId) ?? false;
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
    const mine = commandJobs.get(queue) ?? new Set<number>();
    commandJobs.set(queue, mine);
    const finish = (outcome: JobRunOutcome): void => {
      // Let go after every job:failed listener (the engine's among them) has run.
      if (jobId !== undefined) {
        const id = jobId;
        queueMicrotask(() => mine.delete(id));
      }
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
      mine.add(jobId);
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

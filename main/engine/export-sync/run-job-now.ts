// Runs one job through the durable queue and waits for its end: for commands that do one
// thing now (`exports sync BRAND`, `skills add ID`) with the same durability as the engine
// (facts, resumable downloads). Ends early when the queue cannot make progress: the account
// is refused, or the service stays unreachable past a grace period.
import type { EnqueueOptions, JobQueue } from '../queue/index.ts';
import type { JobError, JobRecord } from '../store/index.ts';

export type JobRunOutcome =
  | { state: 'done'; job: JobRecord }
  | { state: 'failed'; job: JobRecord; error: JobError }
  | { state: 'cancelled'; job: JobRecord }
  | { state: 'halted'; code: string; message: string };

export interface RunJobNowOptions {
  signal?: AbortSignal;
  /** How long the service may stay unreachable before giving up (default 30 s). */
  offlineGraceMs?: number;
}

export function runJobNow(
  queue: JobQueue,
  kind: string,
  payload: unknown,
  enqueue: EnqueueOptions,
  options: RunJobNowOptions = {},
): Promise<JobRunOutcome> {
  const grace = options.offlineGraceMs ?? 30_000;
  return new Promise((resolve, reject) => {
    let jobId: number | undefined;
    let offlineTimer: NodeJS.Timeout | undefined;
    const offs: (() => void)[] = [];
    let ended = false;
    const finish = (outcome: JobRunOutcome): void => {
      if (ended) return;
      ended = true;
      clearTimeout(offlineTimer);
      for (const off of offs) off();
      options.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onAbort = (): void =>
      finish({ state: 'halted', code: 'ABORTED', message: 'interrupted; the job stays queued' });
    const check = (): void => {
      const status = queue.status();
      const account = status.conditions.find((c) => c.name === 'account');
      if (account) return finish({ state: 'halted', code: account.code, message: account.message });
      const offline = status.conditions.find((c) => c.name === 'offline');
      if (offline === undefined) {
        clearTimeout(offlineTimer);
        offlineTimer = undefined;
      } else if (offlineTimer === undefined) {
        offlineTimer = setTimeout(
          () =>
            finish({
              state: 'halted',
              code: offline.code,
              message: `the service is unreachable: ${offline.message}`,
            }),
          grace,
        );
      }
      if (status.userPaused) {
        finish({
          state: 'halted',
          code: 'QUEUE_PAUSED',
          message: 'the queue is paused; resume it',
        });
      }
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
      queue.events.on('queue:status', check),
    );
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) return onAbort();
    try {
      jobId = queue.enqueue(kind, payload, enqueue).job.id;
      queue.start();
    } catch (error) {
      for (const off of offs) off();
      reject(error);
      return;
    }
    check();
  });
}

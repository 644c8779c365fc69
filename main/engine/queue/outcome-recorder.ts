// Recording how a run ended: done, failed for good, cancelled, back to the queue, or waiting
// to retry after a backoff, an offline probe or the service's Retry-After; each with its
// event. A failure to record counts as a transient failure, so a job is never lost.
import type { JobError, JobRecord, Store } from '../store/index.ts';
import { backoffDelay } from './backoff.ts';
import { classifyFailure } from './classify-failure.ts';
import type { RunOutcome } from './job-run.ts';
import type { QueueClock } from './queue-clock.ts';
import type { QueueConditions } from './queue-conditions.ts';
import type { QueueEvents } from './queue-events.ts';
import type { ActiveRun, RunningJob } from './queue-types.ts';
import type { TypedEmitter } from './typed-emitter.ts';

export interface OutcomeRecorderParts {
  store: Store;
  clock: QueueClock;
  random: () => number;
  events: TypedEmitter<QueueEvents>;
  conditions: QueueConditions;
  /** The worker's owner ID (the queue has started). */
  ownerId: () => string;
  /** The service asked every job to wait until `until` (a 429). */
  holdUntil: (until: number) => void;
  reportStoreFailure: (error: unknown) => void;
}

export class OutcomeRecorder {
  private readonly parts: OutcomeRecorderParts;

  constructor(parts: OutcomeRecorderParts) {
    this.parts = parts;
  }

  settle(run: ActiveRun, outcome: RunOutcome): void {
    if (run.abortReason === 'lease-lost') return; // the job is someone else's now
    const { store, events, conditions } = this.parts;
    const now = this.parts.clock.now();
    const owner = this.parts.ownerId();
    const jobs = store.jobs;
    const typed = (job: JobRecord): RunningJob<unknown> => job;
    try {
      if (outcome.ok) {
        // Without fsync (Db.relaxed): a completion lost to a power cut runs the job again,
        // which every handler survives (as a crash just before this commit).
        const done = store.db.relaxed(() =>
          store.transaction(() => {
            const job = jobs.complete(run.job.id, owner, outcome.result, now);
            if (job !== undefined) run.kind.definition.onDone?.(typed(job), outcome.result);
            return job;
          }),
        );
        if (done !== undefined) events.emit('job:done', { job: done });
        conditions.evidence('success');
        return;
      }
      const failure = outcome.failure;
      if (failure.type === 'lease-lost') return;
      if (run.abortReason === 'stop') {
        return this.requeued(
          jobs.retryLater(run.job.id, owner, requeue(now), now),
          'the queue stopped',
        );
      }
      if (run.abortReason === 'cancel' || run.job.cancelRequested) {
        const job = jobs.markCancelled(run.job.id, owner, now);
        if (job !== undefined) events.emit('job:cancelled', { job });
        return;
      }
      switch (failure.type) {
        case 'permanent':
          conditions.evidence(
            failure.error.status === undefined || failure.error.status === 0 ? 'none' : 'answered',
          );
          return this.recordFailure(run, failure.error, now);
        case 'account': {
          conditions.raise('account', failure.error);
          return this.requeued(
            jobs.retryLater(run.job.id, owner, requeue(now, failure.error), now),
            failure.error.code,
          );
        }
        case 'offline': {
          conditions.raise('offline', failure.error);
          const delay = backoffDelay(
            run.job.networkFailures + 1,
            run.kind.backoff,
            this.parts.random,
          );
          return this.retryIn(run, delay, failure.error, now, {
            refund: true,
            networkFailure: true,
          });
        }
        case 'rate-limited': {
          conditions.evidence('answered');
          const delay =
            failure.retryAfterMs ??
            backoffDelay(run.job.attempts, run.kind.backoff, this.parts.random);
          this.parts.holdUntil(now + delay);
          return this.retryIn(run, delay, failure.error, now, {
            refund: true,
            networkFailure: false,
          });
        }
        case 'transient':
        case 'aborted': {
          conditions.evidence(failure.error.kind === 'server' ? 'answered' : 'none');
          if (run.job.attempts >= run.kind.maxAttempts) {
            return this.recordFailure(
              run,
              {
                ...failure.error,
                message: `${failure.error.message} (gave up after ${run.job.attempts} attempts)`,
              },
              now,
            );
          }
          const delay =
            'retryAfterMs' in failure && failure.retryAfterMs !== undefined
              ? failure.retryAfterMs
              : backoffDelay(run.job.attempts, run.kind.backoff, this.parts.random);
          return this.retryIn(run, delay, failure.error, now, {
            refund: false,
            networkFailure: false,
          });
        }
      }
    } catch (error) {
      this.recordingFailed(run, error, now);
    }
  }

  /**
   * Recording the outcome failed (the write, or the kind's onDone hook): the run counts as
   * a transient failure, so the job runs again rather than being lost.
   */
  recordingFailed(run: ActiveRun, error: unknown, now: number): void {
    this.parts.reportStoreFailure(error);
    const failure = classifyFailure(error);
    const jobError: JobError =
      failure.type === 'lease-lost'
        ? { code: 'LEASE_LOST', message: 'lease lost', kind: 'internal', retryable: true }
        : failure.error;
    const delay = backoffDelay(run.job.attempts, run.kind.backoff, this.parts.random);
    try {
      this.retryIn(run, delay, jobError, now, { refund: false, networkFailure: false });
    } catch (again) {
      this.parts.reportStoreFailure(again);
    }
  }

  private recordFailure(run: ActiveRun, error: JobError, now: number): void {
    const owner = this.parts.ownerId();
    const failed = this.parts.store.transaction(() => {
      const job = this.parts.store.jobs.fail(run.job.id, owner, error, now);
      if (job !== undefined) run.kind.definition.onFailed?.(job, error);
      return job;
    });
    if (failed !== undefined) this.parts.events.emit('job:failed', { job: failed, error });
  }

  /** The job runs again after `delay`; `refund`: this attempt is not counted against it. */
  private retryIn(
    run: ActiveRun,
    delay: number,
    error: JobError,
    now: number,
    how: { refund: boolean; networkFailure: boolean },
  ): void {
    const job = this.parts.store.jobs.retryLater(
      run.job.id,
      this.parts.ownerId(),
      { nextRunAt: now + delay, error, ...how },
      now,
    );
    if (job !== undefined)
      this.parts.events.emit('job:retry', { job, error, nextRunAt: job.nextRunAt });
  }

  private requeued(job: JobRecord | undefined, reason: string): void {
    if (job !== undefined) this.parts.events.emit('job:requeued', { job, reason });
  }
}

/** Back to the queue at once, the attempt refunded (the run was interrupted, not failed). */
export function requeue(now: number, error: JobError | null = null) {
  return { nextRunAt: now, error, refund: true, networkFailure: false, state: 'queued' as const };
}

// The typed events of the job queue, for the UI (over the bridge) and the CLI.
import type { JobError, JobRecord } from '../store/index.ts';

/** Queue-wide reasons not to start jobs. */
export type QueueConditionName = 'offline' | 'account';

export interface QueueCondition {
  name: QueueConditionName;
  code: string;
  message: string;
  since: number;
  /** When the queue next tries one job to see whether the condition cleared. */
  nextProbeAt: number;
}

export interface QueueStatus {
  started: boolean;
  /** Paused by the user (persisted across restarts). */
  userPaused: boolean;
  /** Paused by the user or by a condition. */
  paused: boolean;
  conditions: QueueCondition[];
  /** The service asked us to wait (429 Retry-After) until then. */
  rateLimitedUntil: number | null;
  runningJobs: number;
}

export interface QueueEvents {
  'job:queued': { job: JobRecord };
  'job:started': { job: JobRecord };
  'job:progress': { jobId: number; kind: string; done: number; total: number | null };
  'job:retry': { job: JobRecord; error: JobError; nextRunAt: number };
  'job:done': { job: JobRecord };
  'job:failed': { job: JobRecord; error: JobError };
  'job:cancelled': { job: JobRecord };
  /** A running job went back to the queue (lease recovery, shutdown, pause by condition). */
  'job:requeued': { job: JobRecord; reason: string };
  'queue:status': QueueStatus;
  /** The queue's own bookkeeping failed (a store write); it keeps going and retries. */
  'queue:error': { code: string; message: string };
}

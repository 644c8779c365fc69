// What the job queue's users and its parts share: a kind's definition and what its handler
// is given, the queue's options, and a run in progress.
import type { z } from 'zod';
import type { JobError, JobRecord, Store } from '../store/index.ts';
import type { BackoffPolicy } from './backoff.ts';
import type { QueueClock } from './queue-clock.ts';

/** A job as its handler sees it: the payload parsed by the kind's schema. */
export type RunningJob<P> = Omit<JobRecord, 'payload'> & { payload: P };

export interface JobContext {
  /** Fires when the job is cancelled, the queue stops, or the lease is lost. */
  signal: AbortSignal;
  /** Number of this attempt (1 on the first run). */
  attempt: number;
  /** Facts remembered by earlier attempts and this one. */
  readonly facts: Readonly<Record<string, unknown>>;
  /**
   * Writes facts to the database before returning (JSON merge: null removes one). Call it
   * before a request leaves, so that a crash after the send finds what was sent.
   */
  remember(facts: Record<string, unknown>): void;
  /** The job's idempotency key under `name`: created and remembered on first use, then reused. */
  idempotencyKey(name?: string): string;
  progress(done: number, total?: number | null): void;
}

export interface JobKindDefinition<P> {
  payload: z.ZodType<P>;
  /** Jobs of this kind running at once (default 1). */
  concurrency?: number;
  /** Charged attempts before a transient failure becomes final (default 8). */
  maxAttempts?: number;
  backoff?: Partial<BackoffPolicy>;
  run(job: RunningJob<P>, ctx: JobContext): Promise<unknown>;
  /** Runs inside the transaction that marks the job done (record the outcome atomically). */
  onDone?(job: RunningJob<P>, result: unknown): void;
  /** Runs inside the transaction that marks the job failed. */
  onFailed?(job: RunningJob<P>, error: JobError): void;
}

export interface EnqueueOptions {
  /** Deduplication: while a job with this key is queued, running or waiting, no second one is added. */
  key?: string;
  brandId?: string;
  /** Higher runs first (default 0). */
  priority?: number;
  /** Not before this time. */
  runAt?: number;
}

export interface EnqueueResult<P> {
  job: RunningJob<P>;
  /** false: an active job with the same key already existed and is returned. */
  created: boolean;
}

export interface JobKindHandle<P> {
  kind: string;
  enqueue(payload: P, options?: EnqueueOptions): EnqueueResult<P>;
}

export interface JobQueueOptions {
  store: Store;
  clock?: QueueClock;
  random?: () => number;
  /** Lease length; renewed every third of it while the job runs (default 30 s). */
  leaseMs?: number;
  /** Jobs running at once over all kinds (default 14: uploads take 12, two stay for the rest). */
  maxConcurrency?: number;
  backoff?: Partial<BackoffPolicy>;
  /** Delays between offline probes: from base, doubling, capped (default 2 s .. 60 s). */
  offlineProbe?: BackoffPolicy;
  /** Delay between probes while the account is refused (default 5 min; a login clears it at once). */
  accountProbeMs?: number;
  /** Delay before the queue retries after its own bookkeeping failed (default 1 s). */
  storeRetryMs?: number;
  /** The API client's per-key gate: no job starts while it is closed. */
  rateGate?: { readonly pausedUntil: number | undefined };
}

/** A registered kind with its defaults filled in. */
export interface RegisteredKind {
  definition: JobKindDefinition<unknown>;
  concurrency: number;
  maxAttempts: number;
  backoff: BackoffPolicy;
}

export type AbortReason = 'stop' | 'cancel' | 'lease-lost';

/** A job this queue is running now. */
export interface ActiveRun {
  job: JobRecord;
  kind: RegisteredKind;
  controller: AbortController;
  abortReason: AbortReason | null;
  facts: Record<string, unknown>;
  progress: { done: number; total: number | null } | null;
  probe: boolean;
  cancelLease: () => void;
}

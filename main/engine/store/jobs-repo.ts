// Rows of the durable job queue. Every transition that belongs to a running job checks
// the lease (state 'running' and lease_owner = the caller), so a worker that lost its
// lease (it slept past the expiry and someone recovered the job) cannot overwrite the
// new owner's work. The queue's rules live in main/engine/queue; this is only storage.
import type { Db } from './db.ts';
import { StoreError } from './store-error.ts';
import { fromJson, sqlText, toJson } from './sql-values.ts';
import { pageLimit, requireOneOf } from './arguments.ts';

export const jobStates = [
  'queued',
  'running',
  'retry-wait',
  'done',
  'failed',
  'cancelled',
] as const;
export type JobState = (typeof jobStates)[number];
export const activeJobStates: readonly JobState[] = ['queued', 'running', 'retry-wait'];

/** Why a job last failed; a plain value (it is stored, shown and sent over IPC). */
/** Fact under which the queue counts runs that died with their worker (see recoverExpired). */
export const INTERRUPTIONS_FACT = '_interruptions';

const interrupted = `attempts = max(attempts - 1, 0),
  facts_json = json_set(facts_json, '$.${INTERRUPTIONS_FACT}',
    coalesce(json_extract(facts_json, '$.${INTERRUPTIONS_FACT}'), 0) + 1)`;

/** How many runs of this job died with their worker. */
export function interruptionsOf(job: Pick<JobRecord, 'facts'>): number {
  const n = job.facts[INTERRUPTIONS_FACT];
  return typeof n === 'number' ? n : 0;
}

export interface JobError {
  code: string;
  message: string;
  /** ApiError kind, or 'permanent' / 'transient' / 'store' / 'internal'. */
  kind: string;
  retryable: boolean;
  status?: number;
  data?: unknown;
}

export interface JobRecord {
  id: number;
  kind: string;
  key: string | null;
  brandId: string | null;
  payload: unknown;
  /** Facts the handler remembered before acting (idempotency keys, IDs received). */
  facts: Record<string, unknown>;
  result: unknown;
  state: JobState;
  priority: number;
  /** Attempts charged: runs that started, minus those refunded (rate limit, offline, pause). */
  attempts: number;
  networkFailures: number;
  nextRunAt: number;
  lastError: JobError | null;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  progress: { done: number; total: number | null } | null;
  cancelRequested: boolean;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

export interface NewJob {
  kind: string;
  payload: unknown;
  key?: string | null;
  brandId?: string | null;
  priority?: number;
  runAt?: number;
}

interface JobRow {
  id: number;
  kind: string;
  job_key: string | null;
  brand_id: string | null;
  payload_json: string;
  facts_json: string;
  result_json: string | null;
  state: JobState;
  priority: number;
  attempts: number;
  network_failures: number;
  next_run_at: number;
  last_error_json: string | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
  progress_done: number | null;
  progress_total: number | null;
  cancel_requested: number;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export interface QueueOwner {
  ownerId: string;
  host: string;
  pid: number;
  startedAt: number;
}

const activeStatesSql = "('queued', 'running', 'retry-wait')";
const running = "state = 'running' AND lease_owner = @owner";

interface ClaimCandidate {
  id: number;
  priority: number;
  next_run_at: number;
}

/** Claim order: higher priority, then due earlier, then older. */
function claimsBefore(a: ClaimCandidate, b: ClaimCandidate): boolean {
  if (a.priority !== b.priority) return a.priority > b.priority;
  if (a.next_run_at !== b.next_run_at) return a.next_run_at < b.next_run_at;
  return a.id < b.id;
}

export class JobsRepo {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /**
   * Adds a job unless one with the same key is still active (queued, running or waiting
   * to retry): then that one is returned, with its priority raised to the higher of both,
   * and, if it is queued for later, its run time brought forward to the earlier of both (the
   * same work asked for sooner; a retry's backoff is never shortened).
   */
  enqueue(job: NewJob, now: number): { job: JobRecord; created: boolean } {
    if (job.kind.trim() === '') throw new StoreError('INVALID_ARGUMENT', 'A job needs a kind.');
    const priority = job.priority ?? 0;
    if (!Number.isSafeInteger(priority)) {
      throw new StoreError(
        'INVALID_ARGUMENT',
        `Job priority must be an integer (got ${priority}).`,
      );
    }
    const payloadJson = JSON.stringify(job.payload);
    if (payloadJson === undefined)
      throw new StoreError('INVALID_ARGUMENT', 'A job payload must be JSON.');
    return this.db.tx(() => {
      if (job.key !== undefined && job.key !== null) {
        const existing = this.db.get<JobRow>(
          `SELECT * FROM jobs WHERE job_key = ? AND state IN ${activeStatesSql}`,
          job.key,
        );
        if (existing !== undefined) {
          const runAt = job.runAt ?? now;
          const sooner = existing.state === 'queued' && runAt < existing.next_run_at;
          if (priority <= existing.priority && !sooner)
            return { job: toJob(existing), created: false };
          const raised = this.db.runGet<JobRow>(
            'UPDATE jobs SET priority = ?, next_run_at = ?, updated_at = ? WHERE id = ? RETURNING *',
            Math.max(priority, existing.priority),
            sooner ? runAt : existing.next_run_at,
            now,
            existing.id,
          );
          return { job: toJob(raised as JobRow), created: false };
        }
      }
      const row = this.db.runGet<JobRow>(
        `INSERT INTO jobs (kind, job_key, brand_id, payload_json, state, priority, next_run_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?) RETURNING *`,
        job.kind,
        job.key ?? null,
        job.brandId ?? null,
        payloadJson,
        priority,
        job.runAt ?? now,
        now,
        now,
      );
      return { job: toJob(row as JobRow), created: true };
    });
  }

  /**
   * Takes the most urgent due job of one of these kinds: highest priority, then earliest
   * due, then oldest. Charges an attempt and sets the lease in the same transaction.
   * Each kind's first due job is one walk of jobs_claim, which is in claim order; the best
   * of those few is taken (a single query over all kinds read and sorted every waiting job).
   */
  claimNext(
    kinds: readonly string[],
    owner: string,
    now: number,
    leaseUntil: number,
  ): JobRecord | undefined {
    if (kinds.length === 0) return undefined;
    return this.db.tx(() => {
      let best: ClaimCandidate | undefined;
      for (const kind of kinds) {
        // The kind is written into the statement, not bound: bound, SQLite prepares this
        // statement again at every run (better-sqlite3's build has STAT4; during a sync of
        // 1,000 files, 31 µs a lookup at the median against 1.6). One cached statement a kind.
        const head = this.db.get<ClaimCandidate>(
          `SELECT id, priority, next_run_at FROM jobs INDEXED BY jobs_claim
           WHERE kind = ${sqlText(kind)} AND state IN ('queued', 'retry-wait') AND next_run_at <= ?
           ORDER BY priority DESC, next_run_at, id LIMIT 1`,
          now,
        );
        if (head !== undefined && (best === undefined || claimsBefore(head, best))) best = head;
      }
      if (best === undefined) return undefined;
      const row = this.db.runGet<JobRow>(
        `UPDATE jobs SET state = 'running', lease_owner = @owner, lease_expires_at = @lease, attempts = attempts + 1,
           started_at = @now, updated_at = @now, progress_done = NULL, progress_total = NULL
         WHERE id = @id RETURNING *`,
        { owner, lease: leaseUntil, now, id: best.id },
      );
      return row === undefined ? undefined : toJob(row);
    });
  }

  /**
   * Extends the lease. 'lost': it is no longer ours; 'cancel-requested': someone asked to
   * cancel the job (possibly from another process). Progress rides along (not worth its own write).
   */
  renewLease(
    id: number,
    owner: string,
    leaseUntil: number,
    progress: { done: number; total: number | null } | null,
  ): 'ok' | 'lost' | 'cancel-requested' {
    const row = this.db.runGet<{ cancel_requested: number }>(
      `UPDATE jobs SET lease_expires_at = @lease, progress_done = @done, progress_total = @total
       WHERE id = @id AND ${running} RETURNING cancel_requested`,
      {
        lease: leaseUntil,
        id,
        owner,
        done: progress?.done ?? null,
        total: progress?.total ?? null,
      },
    );
    if (row === undefined) return 'lost';
    return row.cancel_requested === 1 ? 'cancel-requested' : 'ok';
  }

  /** Merges facts into the job (JSON merge patch: null removes a fact); false when the lease is lost. */
  remember(
    id: number,
    owner: string,
    facts: Record<string, unknown>,
    now: number,
  ): Record<string, unknown> | undefined {
    const row = this.db.runGet<{ facts_json: string }>(
      `UPDATE jobs SET facts_json = json_patch(facts_json, @facts), updated_at = @now
       WHERE id = @id AND ${running} RETURNING facts_json`,
      { facts: JSON.stringify(facts), now, id, owner },
    );
    return row === undefined ? undefined : (JSON.parse(row.facts_json) as Record<string, unknown>);
  }

  complete(id: number, owner: string, result: unknown, now: number): JobRecord | undefined {
    return this.finishRunning(
      id,
      owner,
      now,
      "state = 'done', result_json = @result, last_error_json = NULL",
      {
        result: toJson(result),
      },
    );
  }

  fail(id: number, owner: string, error: JobError, now: number): JobRecord | undefined {
    return this.finishRunning(id, owner, now, "state = 'failed', last_error_json = @error", {
      error: JSON.stringify(error),
    });
  }

  /** The run was cancelled on request: it ends here. */
  markCancelled(id: number, owner: string, now: number): JobRecord | undefined {
    return this.finishRunning(id, owner, now, "state = 'cancelled'", {});
  }

  /**
   * Back to waiting. refund: the attempt was not the job's fault (rate limit, offline,
   * account condition, shutdown) and is not charged.
   */
  retryLater(
    id: number,
    owner: string,
    options: {
      nextRunAt: number;
      error: JobError | null;
      refund: boolean;
      networkFailure: boolean;
      state?: JobState;
    },
    now: number,
  ): JobRecord | undefined {
    const row = this.db.runGet<JobRow>(
      `UPDATE jobs SET state = @state, next_run_at = @next, updated_at = @now,
         last_error_json = coalesce(@error, last_error_json),
         attempts = attempts - @refund, network_failures = network_failures + @net,
         lease_owner = NULL, lease_expires_at = NULL
       WHERE id = @id AND ${running} RETURNING *`,
      {
        state: options.state ?? 'retry-wait',
        next: options.nextRunAt,
        now,
        error: toJson(options.error),
        refund: options.refund ? 1 : 0,
        net: options.networkFailure ? 1 : 0,
        id,
        owner,
      },
    );
    return row === undefined ? undefined : toJob(row);
  }

  /**
   * Cancels a job that has not finished. A waiting one ends at once; a running one is
   * flagged (its worker aborts it and records the end). Returns undefined for unknown IDs.
   */
  cancel(id: number, now: number): JobRecord | undefined {
    return this.db.tx(() => {
      const row = this.db.get<JobRow>('SELECT * FROM jobs WHERE id = ?', id);
      if (row === undefined) return undefined;
      if (row.state === 'queued' || row.state === 'retry-wait') {
        return toJob(
          this.db.runGet<JobRow>(
            "UPDATE jobs SET state = 'cancelled', finished_at = ?, updated_at = ? WHERE id = ? RETURNING *",
            now,
            now,
            id,
          ) as JobRow,
        );
      }
      if (row.state === 'running') {
        return toJob(
          this.db.runGet<JobRow>(
            'UPDATE jobs SET cancel_requested = 1, updated_at = ? WHERE id = ? RETURNING *',
            now,
            id,
          ) as JobRow,
        );
      }
      return toJob(row);
    });
  }

  /**
   * A failed or cancelled job runs again from scratch (attempts reset, facts kept: an
   * idempotency key remembered before stays valid). If another job with its key became
   * active meanwhile, that one is returned instead.
   */
  retry(id: number, now: number): JobRecord | undefined {
    return this.db.tx(() => {
      const row = this.db.get<JobRow>('SELECT * FROM jobs WHERE id = ?', id);
      if (row === undefined) return undefined;
      if (row.state !== 'failed' && row.state !== 'cancelled') return toJob(row);
      if (row.job_key !== null) {
        const active = this.db.get<JobRow>(
          `SELECT * FROM jobs WHERE job_key = ? AND state IN ${activeStatesSql}`,
          row.job_key,
        );
        if (active !== undefined) return toJob(active);
      }
      return toJob(
        this.db.runGet<JobRow>(
          `UPDATE jobs SET state = 'queued', attempts = 0, network_failures = 0, next_run_at = ?, updated_at = ?,
             finished_at = NULL, cancel_requested = 0 WHERE id = ? RETURNING *`,
          now,
          now,
          id,
        ) as JobRow,
      );
    });
  }

  /**
   * Running jobs whose lease expired go back to the queue. The run died with its worker: the
   * attempt is refunded (a user quitting the app is not the job's failure) and counted as an
   * interruption instead, so that a job that kills its worker every time is still stopped.
   */
  recoverExpired(now: number): JobRecord[] {
    return this.db
      .runAll<JobRow>(
        `UPDATE jobs SET state = 'queued', lease_owner = NULL, lease_expires_at = NULL, next_run_at = @now,
           updated_at = @now, ${interrupted}
         WHERE state = 'running' AND lease_expires_at <= @now RETURNING *`,
        { now },
      )
      .map(toJob);
  }

  /** Running jobs of an owner that is gone go back to the queue, as interrupted (above). */
  releaseOwner(owner: string, now: number): JobRecord[] {
    return this.db
      .runAll<JobRow>(
        `UPDATE jobs SET state = 'queued', lease_owner = NULL, lease_expires_at = NULL, next_run_at = @now,
           updated_at = @now, ${interrupted}
         WHERE ${running} RETURNING *`,
        { owner, now },
      )
      .map(toJob);
  }

  get(id: number): JobRecord | undefined {
    const row = this.db.get<JobRow>('SELECT * FROM jobs WHERE id = ?', id);
    return row === undefined ? undefined : toJob(row);
  }

  /**
   * The job's state and when it may run, without its payload or result: a check made once
   * per finished upload (library-feature.ts) reads no more than it needs.
   */
  stateOf(id: number): { state: JobState; nextRunAt: number } | undefined {
    const row = this.db.get<{ state: JobState; next_run_at: number }>(
      'SELECT state, next_run_at FROM jobs WHERE id = ?',
      id,
    );
    return row === undefined ? undefined : { state: row.state, nextRunAt: row.next_run_at };
  }

  getActiveByKey(key: string): JobRecord | undefined {
    const row = this.db.get<JobRow>(
      `SELECT * FROM jobs WHERE job_key = ? AND state IN ${activeStatesSql}`,
      key,
    );
    return row === undefined ? undefined : toJob(row);
  }

  /** Newest first; pass the last id as beforeId for the next page. */
  list(
    options: {
      state?: JobState;
      kind?: string;
      brandId?: string;
      beforeId?: number;
      limit?: number;
    } = {},
  ): JobRecord[] {
    const limit = pageLimit(options.limit, 100, 1000);
    if (options.state !== undefined) requireOneOf(options.state, jobStates, 'Job state');
    const where = ['id < @before'];
    if (options.state !== undefined) where.push('state = @state');
    if (options.kind !== undefined) where.push('kind = @kind');
    if (options.brandId !== undefined) where.push('brand_id = @brand');
    return this.db
      .all<JobRow>(
        `SELECT * FROM jobs WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT @limit`,
        {
          before: options.beforeId ?? Number.MAX_SAFE_INTEGER,
          limit,
          ...(options.state === undefined ? {} : { state: options.state }),
          ...(options.kind === undefined ? {} : { kind: options.kind }),
          ...(options.brandId === undefined ? {} : { brand: options.brandId }),
        },
      )
      .map(toJob);
  }

  countsByState(kinds?: readonly string[]): Record<JobState, number> {
    const counts = Object.fromEntries(jobStates.map((s) => [s, 0])) as Record<JobState, number>;
    const rows =
      kinds === undefined
        ? this.db.all<{ state: JobState; n: number }>(
            'SELECT state, count(*) AS n FROM jobs GROUP BY state',
          )
        : this.db.all<{ state: JobState; n: number }>(
            'SELECT state, count(*) AS n FROM jobs WHERE kind IN (SELECT value FROM json_each(?)) GROUP BY state',
            JSON.stringify(kinds),
          );
    for (const row of rows) counts[row.state] = row.n;
    return counts;
  }

  /** Jobs of these kinds that are not finished (queued, running or waiting to retry). */
  activeCount(kinds: readonly string[]): number {
    const row = this.db.get<{ n: number }>(
      `SELECT count(*) AS n FROM jobs WHERE state IN ${activeStatesSql} AND kind IN (SELECT value FROM json_each(?))`,
      JSON.stringify(kinds),
    );
    return row?.n ?? 0;
  }

  /** Whether any job of this kind is not finished (one indexed row read, not a count). */
  hasActive(kind: string): boolean {
    return (
      this.db.get<{ one: number }>(
        `SELECT 1 AS one FROM jobs WHERE kind = ? AND state IN ${activeStatesSql} LIMIT 1`,
        kind,
      ) !== undefined
    );
  }

  /** When the next waiting job of these kinds becomes due (undefined: none waits). */
  nextDueAt(kinds: readonly string[]): number | undefined {
    const row = this.db.get<{ at: number | null }>(
      `SELECT min(next_run_at) AS at FROM jobs INDEXED BY jobs_state
       WHERE state IN ('queued', 'retry-wait') AND kind IN (SELECT value FROM json_each(?))`,
      JSON.stringify(kinds),
    );
    return row?.at ?? undefined;
  }

  /** Soonest lease expiry among running jobs (for the recovery timer). */
  nextLeaseExpiry(): number | undefined {
    const row = this.db.get<{ at: number | null }>(
      "SELECT min(lease_expires_at) AS at FROM jobs WHERE state = 'running'",
    );
    return row?.at ?? undefined;
  }

  recentFailures(limit = 20): JobRecord[] {
    return this.db
      .all<JobRow>(
        "SELECT * FROM jobs WHERE state = 'failed' ORDER BY finished_at DESC, id DESC LIMIT ?",
        pageLimit(limit, 20, 1000),
      )
      .map(toJob);
  }

  /** Forgets finished jobs (done, cancelled) that ended before the given time; failed ones stay until retried. */
  prune(finishedBefore: number): number {
    return this.db.run(
      "DELETE FROM jobs WHERE state IN ('done', 'cancelled') AND finished_at < ?",
      finishedBefore,
    ).changes;
  }

  registerOwner(owner: QueueOwner): void {
    this.db.run(
      'INSERT OR REPLACE INTO queue_owners (owner_id, host, pid, started_at) VALUES (?, ?, ?, ?)',
      owner.ownerId,
      owner.host,
      owner.pid,
      owner.startedAt,
    );
  }

  removeOwner(ownerId: string): void {
    this.db.run('DELETE FROM queue_owners WHERE owner_id = ?', ownerId);
  }

  owners(): QueueOwner[] {
    return this.db
      .all<{ owner_id: string; host: string; pid: number; started_at: number }>(
        'SELECT * FROM queue_owners ORDER BY started_at',
      )
      .map((row) => ({
        ownerId: row.owner_id,
        host: row.host,
        pid: row.pid,
        startedAt: row.started_at,
      }));
  }

  private finishRunning(
    id: number,
    owner: string,
    now: number,
    sets: string,
    params: Record<string, string | number | null>,
  ): JobRecord | undefined {
    const row = this.db.runGet<JobRow>(
      `UPDATE jobs SET ${sets}, finished_at = @now, updated_at = @now, lease_owner = NULL, lease_expires_at = NULL
       WHERE id = @id AND ${running} RETURNING *`,
      { ...params, now, id, owner },
    );
    return row === undefined ? undefined : toJob(row);
  }
}

function toJob(row: JobRow): JobRecord {
  return {
    id: row.id,
    kind: row.kind,
    key: row.job_key,
    brandId: row.brand_id,
    payload: JSON.parse(row.payload_json) as unknown,
    facts: JSON.parse(row.facts_json) as Record<string, unknown>,
    result: fromJson(row.result_json),
    state: row.state,
    priority: row.priority,
    attempts: row.attempts,
    networkFailures: row.network_failures,
    nextRunAt: row.next_run_at,
    lastError: fromJson(row.last_error_json) as JobError | null,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at,
    progress:
      row.progress_done === null ? null : { done: row.progress_done, total: row.progress_total },
    cancelRequested: row.cancel_requested === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

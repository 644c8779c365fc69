// The durable job queue. Jobs live in the store; this object claims due ones under a
// lease, runs the handler registered for their kind, and records the outcome. A crash at
// any moment leaves every job queued, running under a lease that will be recovered, or
// finished: nothing is lost, and a finished job never runs again.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { JobError, JobRecord, QueueOwner, Store } from '../store/index.ts';
import { interruptionsOf, queuePausedSetting } from '../store/index.ts';
import { backoffDelay, defaultBackoff } from './backoff.ts';
import type { BackoffPolicy } from './backoff.ts';
import { classifyFailure } from './classify-failure.ts';
import type { FailureClass } from './classify-failure.ts';
import { LeaseLostError, QueueError } from './job-errors.ts';
import { isOwnerAlive, newOwner, retireOwner } from './owner-liveness.ts';
import { systemClock } from './queue-clock.ts';
import type { QueueClock } from './queue-clock.ts';
import type {
  QueueCondition,
  QueueConditionName,
  QueueEvents,
  QueueStatus,
} from './queue-events.ts';
import { TypedEmitter } from './typed-emitter.ts';

/**
 * Runs that may die with their process before a job counts as a crash loop and fails. Each
 * such run is refunded, so quitting the app mid-job never uses up a job's own attempts.
 */
export const CRASH_LOOP_LIMIT = 10;

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
  /** Jobs running at once over all kinds (default 8: uploads take 6, two stay for the rest). */
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

interface RegisteredKind {
  definition: JobKindDefinition<unknown>;
  concurrency: number;
  maxAttempts: number;
  backoff: BackoffPolicy;
}

type AbortReason = 'stop' | 'cancel' | 'lease-lost';

interface ActiveRun {
  job: JobRecord;
  kind: RegisteredKind;
  controller: AbortController;
  abortReason: AbortReason | null;
  facts: Record<string, unknown>;
  progress: { done: number; total: number | null } | null;
  probe: boolean;
  cancelLease: () => void;
}

interface ConditionState extends QueueCondition {
  probeDelayMs: number;
}

export class JobQueue {
  readonly events = new TypedEmitter<QueueEvents>();
  private readonly store: Store;
  private readonly clock: QueueClock;
  private readonly random: () => number;
  private readonly leaseMs: number;
  private readonly maxConcurrency: number;
  private readonly backoff: BackoffPolicy;
  private readonly offlineProbe: BackoffPolicy;
  private readonly accountProbeMs: number;
  private readonly storeRetryMs: number;
  private readonly rateGate: JobQueueOptions['rateGate'];
  private readonly kinds = new Map<string, RegisteredKind>();
  private readonly running = new Map<number, ActiveRun>();
  private readonly conditions = new Map<QueueConditionName, ConditionState>();
  private owner: QueueOwner | null = null;
  private started = false;
  private stopping = false;
  private userPaused = false;
  private gateUntil = 0;
  private pumpScheduled = false;
  /**
   * Kinds a claim found nothing due for, until when: a pump skips them (a claim is a write)
   * until a job of theirs is queued, settled or retried here, the time passes, or the
   * lease recovery looks at the store again (jobs queued by another process).
   */
  private readonly nothingDueUntil = new Map<string, { until: number; due: boolean }>();
  /** Runs that succeeded, recorded by the next pump in the transaction of its claims. */
  private doneRuns: Array<{ run: ActiveRun; result: unknown }> = [];
  private wake: { at: number; cancel: () => void } | null = null;
  private recoveryTimer: (() => void) | null = null;
  private idleWaiters: (() => void)[] = [];
  private settledWaiters: { resolve: () => void; reject: (error: Error) => void }[] = [];

  constructor(options: JobQueueOptions) {
    this.store = options.store;
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.leaseMs = positive(options.leaseMs ?? 30_000, 'leaseMs');
    this.maxConcurrency = positive(options.maxConcurrency ?? 8, 'maxConcurrency');
    this.backoff = { ...defaultBackoff, ...options.backoff };
    this.offlineProbe = options.offlineProbe ?? { baseMs: 2_000, capMs: 60_000 };
    this.accountProbeMs = positive(options.accountProbeMs ?? 5 * 60_000, 'accountProbeMs');
    this.storeRetryMs = positive(options.storeRetryMs ?? 1_000, 'storeRetryMs');
    this.rateGate = options.rateGate;
  }

  /** Registers the handler of a kind; returns a typed handle to enqueue jobs of it. */
  register<P>(kind: string, definition: JobKindDefinition<P>): JobKindHandle<P> {
    if (kind.trim() === '') throw new QueueError('INVALID_OPTION', 'A job kind needs a name.');
    if (this.kinds.has(kind))
      throw new QueueError('ALREADY_REGISTERED', `Job kind "${kind}" is already registered.`);
    this.kinds.set(kind, {
      definition: definition as JobKindDefinition<unknown>,
      concurrency: positive(definition.concurrency ?? 1, `${kind}.concurrency`),
      maxAttempts: positive(definition.maxAttempts ?? 8, `${kind}.maxAttempts`),
      backoff: { ...this.backoff, ...definition.backoff },
    });
    this.schedulePump();
    return {
      kind,
      enqueue: (payload, options) => this.enqueue(kind, payload, options) as EnqueueResult<P>,
    };
  }

  /** Validates the payload against the kind's schema and adds the job (or finds its active twin). */
  enqueue(kind: string, payload: unknown, options: EnqueueOptions = {}): EnqueueResult<unknown> {
    const registered = this.kinds.get(kind);
    if (registered === undefined) {
      throw new QueueError('UNKNOWN_JOB_KIND', `No handler is registered for job kind "${kind}".`);
    }
    const parsed = registered.definition.payload.safeParse(payload);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where =
        issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
      throw new QueueError(
        'INVALID_PAYLOAD',
        `Job "${kind}" payload is invalid${where}: ${issue?.message ?? 'invalid'}.`,
      );
    }
    const { job, created } = this.store.jobs.enqueue(
      {
        kind,
        payload: parsed.data,
        key: options.key ?? null,
        brandId: options.brandId ?? null,
        priority: options.priority ?? 0,
        ...(options.runAt === undefined ? {} : { runAt: options.runAt }),
      },
      this.clock.now(),
    );
    if (created) this.events.emit('job:queued', { job });
    this.nothingDueUntil.delete(kind);
    this.schedulePump();
    return { job, created };
  }

  /**
   * Starts working: registers this worker, returns jobs of dead workers and expired leases
   * to the queue, and honours a pause the user left on.
   */
  start(): void {
    if (this.stopping) throw new QueueError('STOPPED', 'This queue was stopped; create a new one.');
    if (this.started) return;
    const now = this.clock.now();
    this.owner = newOwner(now);
    this.store.jobs.registerOwner(this.owner);
    this.userPaused = this.store.settings.read(queuePausedSetting);
    this.started = true;
    this.recoverLeases();
    this.emitStatus();
    this.schedulePump();
  }

  /**
   * Stops claiming, aborts running jobs and waits for them: each goes back to the queue
   * with its attempt refunded (it was interrupted, not failed).
   */
  async stop(): Promise<void> {
    if (!this.started || this.stopping) {
      this.stopping = true;
      return;
    }
    this.stopping = true;
    this.wake?.cancel();
    this.wake = null;
    this.recoveryTimer?.();
    this.recoveryTimer = null;
    const runs = [...this.running.values()];
    for (const run of runs) this.abortRun(run, 'stop');
    if (this.running.size > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    if (this.owner !== null) {
      retireOwner(this.owner.ownerId);
      this.safely(() => this.store.jobs.removeOwner((this.owner as QueueOwner).ownerId));
    }
    this.started = false;
    const settled = this.settledWaiters;
    this.settledWaiters = [];
    for (const waiter of settled)
      waiter.reject(new QueueError('STOPPED', 'The queue stopped before it settled.'));
  }

  /** The user pauses the whole queue (remembered across restarts). Running jobs finish. */
  pause(): void {
    this.store.settings.write(queuePausedSetting, true);
    this.userPaused = true;
    this.emitStatus();
  }

  resume(): void {
    this.store.settings.write(queuePausedSetting, false);
    this.userPaused = false;
    this.emitStatus();
    this.schedulePump();
  }

  /** A host that knows better (OS says offline, login failed) sets a condition itself. */
  setCondition(name: QueueConditionName, reason: { code: string; message: string }): void {
    this.raiseCondition(name, reason);
  }

  /** The condition cleared (the network is back, the user logged in again): resume at once. */
  clearCondition(name: QueueConditionName): void {
    if (this.conditions.delete(name)) {
      this.emitStatus();
      this.schedulePump();
    }
  }

  /** Cancels a job: a waiting one at once, a running one by aborting its handler. */
  cancel(jobId: number): JobRecord | undefined {
    const job = this.store.jobs.cancel(jobId, this.clock.now());
    if (job === undefined) return undefined;
    if (job.state === 'cancelled') this.events.emit('job:cancelled', { job });
    const run = this.running.get(jobId);
    if (run !== undefined) this.abortRun(run, 'cancel');
    this.schedulePump();
    return job;
  }

  /** Runs a failed or cancelled job again from its first attempt. */
  retry(jobId: number): JobRecord | undefined {
    const job = this.store.jobs.retry(jobId, this.clock.now());
    if (job?.state === 'queued') this.events.emit('job:queued', { job });
    if (job !== undefined) this.nothingDueUntil.delete(job.kind);
    this.schedulePump();
    return job;
  }

  status(): QueueStatus {
    const gate = Math.max(this.gateUntil, this.rateGate?.pausedUntil ?? 0);
    return {
      started: this.started,
      userPaused: this.userPaused,
      paused: this.userPaused || this.conditions.size > 0,
      conditions: [...this.conditions.values()].map(
        ({ probeDelayMs: _, ...condition }) => condition,
      ),
      rateLimitedUntil: gate > this.clock.now() ? gate : null,
      runningJobs: this.running.size,
    };
  }

  /** Resolves when nothing runs and nothing can start before time passes or a condition clears. */
  whenIdle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.schedulePump();
    });
  }

  /** Resolves when no job of a registered kind is queued, running or waiting to retry. */
  whenSettled(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.settledWaiters.push({ resolve, reject });
      this.schedulePump();
    });
  }

  // ---- scheduling ------------------------------------------------------------------------

  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    queueMicrotask(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    if (!this.started) return;
    if (this.stopping) {
      try {
        this.recordDone([]);
      } catch (error) {
        this.reportStoreFailure(error);
      }
      return;
    }
    const now = this.clock.now();
    let wakeAt: number | undefined;
    const claimed: Array<{ job: JobRecord; probe: boolean }> = [];
    // Runs being recorded have left `running` by the time `claim` runs.
    const busy = (): number => this.running.size + claimed.length;
    const busyOf = (kind: string): number =>
      this.runningOf(kind) + claimed.filter((c) => c.job.kind === kind).length;
    const claimable = (): boolean => {
      if (this.userPaused) return false;
      const gate = Math.max(this.gateUntil, this.rateGate?.pausedUntil ?? 0);
      if (gate > now) {
        wakeAt = gate;
        return false;
      }
      if (this.conditions.size > 0) {
        if ([...this.running.values()].some((run) => run.probe)) return false;
        if (claimed.length > 0) return false; // the one probe is claimed
        const probeAt = Math.min(...[...this.conditions.values()].map((c) => c.nextProbeAt));
        if (probeAt > now) {
          wakeAt = probeAt;
          return false;
        }
      }
      return true;
    };
    const freeKinds = (): string[] => {
      const free: string[] = [];
      for (const [kind, registered] of this.kinds) {
        if (busyOf(kind) >= registered.concurrency) continue;
        const mark = this.nothingDueUntil.get(kind);
        if (mark === undefined || mark.until <= now) free.push(kind);
        // A timer may fire a little before the time it was set for: wake again then.
        else if (mark.due)
          wakeAt = wakeAt === undefined ? mark.until : Math.min(wakeAt, mark.until);
      }
      return free;
    };
    const claim = (): void => {
      while (claimable() && busy() < this.maxConcurrency) {
        const free = freeKinds();
        if (free.length === 0) return;
        const probe = this.conditions.size > 0;
        const job = this.store.jobs.claimNext(
          free,
          (this.owner as QueueOwner).ownerId,
          now,
          now + this.leaseMs,
        );
        if (job === undefined) {
          const due = this.store.jobs.nextDueAt(free);
          if (due !== undefined && due > now)
            wakeAt = wakeAt === undefined ? due : Math.min(wakeAt, due);
          const recheckAt = now + this.leaseMs / 3;
          const mark =
            due !== undefined && due <= recheckAt
              ? { until: due, due: true }
              : { until: recheckAt, due: false };
          for (const kind of free) this.nothingDueUntil.set(kind, mark);
          return;
        }
        claimed.push({ job, probe });
        if (probe) return;
      }
    };
    // The runs that succeeded since the last pump and the claims for their slots: one
    // commit. Bookkeeping commits skip the fsync (see Db.relaxed): a power cut can only undo
    // them, which makes a job run again, as after a crash. Facts a handler remembers
    // before a request leaves are committed with fsync, and that commit carries these.
    // Nothing to record and no slot a job could take: no transaction at all.
    const idle =
      this.doneRuns.length === 0 &&
      !(claimable() && busy() < this.maxConcurrency && freeKinds().length > 0);
    try {
      if (!idle) this.recordDone(claimed, claim);
    } catch (error) {
      this.reportStoreFailure(error);
      claimed.length = 0;
      wakeAt = now + this.storeRetryMs;
    }
    for (const { job, probe } of claimed) this.startRun(job, probe);
    if (wakeAt !== undefined) this.wakeAt(wakeAt);
    this.scheduleRecovery();
    if (this.running.size === 0) this.resolveIdle();
    this.checkSettled();
  }

  /**
   * Records the runs that succeeded, each with its kind's onDone (a savepoint each: one
   * that fails does not undo the others), then runs `claim` in the same transaction.
   * Throws only when the transaction itself failed; the runs are then recorded one by one.
   */
  private recordDone(claimed: Array<{ job: JobRecord }>, claim?: () => void): void {
    const batch = this.doneRuns;
    if (batch.length === 0 && claim === undefined) return;
    this.doneRuns = [];
    // The service answered: a condition (offline, account) is over before the claims.
    if (batch.length > 0) this.conditionEvidence('success');
    const now = this.clock.now();
    const owner = (this.owner as QueueOwner).ownerId;
    const outcomes: Array<{ job: JobRecord | undefined } | { error: unknown }> = [];
    try {
      this.store.db.relaxed(() =>
        this.store.transaction(() => {
          for (const { run, result } of batch) {
            try {
              const job = this.store.transaction(() => {
                const job = this.store.jobs.complete(run.job.id, owner, result, now);
                if (job !== undefined) run.kind.definition.onDone?.(job, result);
                return job;
              });
              outcomes.push({ job });
            } catch (error) {
              outcomes.push({ error });
            }
          }
          this.finishRuns(batch.map((d) => d.run));
          claim?.();
        }),
      );
    } catch (error) {
      claimed.length = 0;
      // Nothing of the batch was recorded: each run on its own, with its own fallback.
      for (const { run, result } of batch) this.settle(run, { ok: true, result });
      this.finishRuns(batch.map((d) => d.run));
      if (this.stopping && this.running.size === 0) this.resolveIdle();
      throw error;
    }
    batch.forEach(({ run }, i) => {
      const outcome = outcomes[i];
      if (outcome !== undefined && 'error' in outcome) {
        this.recordingFailed(run, outcome.error, now);
        // Waiting again, with a time the claims above did not see.
        this.nothingDueUntil.delete(run.job.kind);
        this.schedulePump();
        return;
      }
      if (outcome?.job !== undefined) this.events.emit('job:done', { job: outcome.job });
    });
    if (this.stopping && this.running.size === 0) this.resolveIdle();
  }

  /** The runs' slots are free (their outcome is recorded, or being recorded). */
  private finishRuns(runs: ActiveRun[]): void {
    for (const run of runs) {
      this.running.delete(run.job.id);
      this.nothingDueUntil.delete(run.job.kind); // back to waiting, maybe
    }
  }

  private wakeAt(at: number): void {
    if (this.wake !== null && this.wake.at <= at && this.wake.at > this.clock.now()) return;
    this.wake?.cancel();
    const cancel = this.clock.setTimer(
      () => {
        this.wake = null;
        this.schedulePump();
      },
      Math.max(0, at - this.clock.now()),
    );
    this.wake = { at, cancel };
  }

  private runningOf(kind: string): number {
    let n = 0;
    for (const run of this.running.values()) if (run.job.kind === kind) n++;
    return n;
  }

  // ---- running a job ---------------------------------------------------------------------

  private startRun(job: JobRecord, probe: boolean): void {
    const kind = this.kinds.get(job.kind) as RegisteredKind;
    const run: ActiveRun = {
      job,
      kind,
      controller: new AbortController(),
      abortReason: null,
      facts: { ...job.facts },
      progress: null,
      probe,
      cancelLease: () => {},
    };
    this.running.set(job.id, run);
    run.cancelLease = this.keepLease(run);
    this.events.emit('job:started', { job });
    void this.execute(run);
  }

  private async execute(run: ActiveRun): Promise<void> {
    let outcome: { ok: true; result: unknown } | { ok: false; failure: FailureClass };
    try {
      if (run.job.cancelRequested) throw new Error('cancel requested before start');
      const interruptions = interruptionsOf(run.job);
      if (interruptions >= CRASH_LOOP_LIMIT) {
        // A job that keeps dying with its worker (a crash loop) is stopped here.
        outcome = {
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
      } else {
        const payload = run.kind.definition.payload.parse(run.job.payload);
        const result = await run.kind.definition.run({ ...run.job, payload }, this.contextFor(run));
        outcome = { ok: true, result };
      }
    } catch (error) {
      outcome = { ok: false, failure: classifyFailure(error) };
    }
    run.cancelLease();
    if (outcome.ok && run.abortReason !== 'lease-lost') {
      // Recorded by the next pump, with the claim of the next job, in one commit. That
      // pump waits for the I/O callbacks of this turn of the event loop: answers that
      // arrived together are recorded together.
      this.doneRuns.push({ run, result: outcome.result });
      if (this.doneRuns.length === 1) setImmediate(() => this.schedulePump());
      return;
    }
    this.settle(run, outcome);
    this.running.delete(run.job.id);
    this.nothingDueUntil.delete(run.job.kind); // back to waiting, maybe
    if (!this.stopping) this.schedulePump();
    else if (this.running.size === 0) this.resolveIdle();
  }

  private contextFor(run: ActiveRun): JobContext {
    const remember = (facts: Record<string, unknown>): void => {
      if (run.abortReason === 'lease-lost') throw new LeaseLostError(run.job.id);
      const merged = this.store.jobs.remember(
        run.job.id,
        (this.owner as QueueOwner).ownerId,
        facts,
        this.clock.now(),
      );
      if (merged === undefined) {
        this.abortRun(run, 'lease-lost');
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
        this.events.emit('job:progress', { jobId: run.job.id, kind: run.job.kind, done, total });
      },
    };
  }

  /** Renews the lease every third of its length; a lost lease aborts the run. */
  private keepLease(run: ActiveRun): () => void {
    let cancel = (): void => {};
    const tick = (): void => {
      const now = this.clock.now();
      try {
        const kept = this.store.jobs.renewLease(
          run.job.id,
          (this.owner as QueueOwner).ownerId,
          now + this.leaseMs,
          run.progress,
        );
        if (kept === 'lost') return this.abortRun(run, 'lease-lost');
        if (kept === 'cancel-requested') this.abortRun(run, 'cancel');
      } catch (error) {
        this.reportStoreFailure(error);
      }
      cancel = this.clock.setTimer(tick, Math.max(1, Math.floor(this.leaseMs / 3)));
    };
    cancel = this.clock.setTimer(tick, Math.max(1, Math.floor(this.leaseMs / 3)));
    return () => cancel();
  }

  private abortRun(run: ActiveRun, reason: AbortReason): void {
    if (run.abortReason !== null) return;
    run.abortReason = reason;
    run.controller.abort(new Error(`job ${run.job.id}: ${reason}`));
  }

  // ---- recording outcomes ------------------------------------------------------------------

  private settle(
    run: ActiveRun,
    outcome: { ok: true; result: unknown } | { ok: false; failure: FailureClass },
  ): void {
    if (run.abortReason === 'lease-lost') return; // the job is someone else's now
    const now = this.clock.now();
    const owner = (this.owner as QueueOwner).ownerId;
    const jobs = this.store.jobs;
    const typed = (job: JobRecord): RunningJob<unknown> => job;
    try {
      if (outcome.ok) {
        // Without fsync (Db.relaxed): a completion lost to a power cut runs the job again,
        // which every handler survives (as a crash just before this commit).
        const done = this.store.db.relaxed(() =>
          this.store.transaction(() => {
            const job = jobs.complete(run.job.id, owner, outcome.result, now);
            if (job !== undefined) run.kind.definition.onDone?.(typed(job), outcome.result);
            return job;
          }),
        );
        if (done !== undefined) this.events.emit('job:done', { job: done });
        this.conditionEvidence('success');
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
        if (job !== undefined) this.events.emit('job:cancelled', { job });
        return;
      }
      switch (failure.type) {
        case 'permanent':
          this.conditionEvidence(
            failure.error.status === undefined || failure.error.status === 0 ? 'none' : 'answered',
          );
          return this.recordFailure(run, failure.error, now);
        case 'account': {
          this.raiseCondition('account', failure.error);
          return this.requeued(
            jobs.retryLater(run.job.id, owner, requeue(now, failure.error), now),
            failure.error.code,
          );
        }
        case 'offline': {
          this.raiseCondition('offline', failure.error);
          const delay = backoffDelay(run.job.networkFailures + 1, run.kind.backoff, this.random);
          return this.retryEvent(
            jobs.retryLater(
              run.job.id,
              owner,
              { nextRunAt: now + delay, error: failure.error, refund: true, networkFailure: true },
              now,
            ),
            failure.error,
          );
        }
        case 'rate-limited': {
          this.conditionEvidence('answered');
          const delay =
            failure.retryAfterMs ?? backoffDelay(run.job.attempts, run.kind.backoff, this.random);
          this.gateUntil = Math.max(this.gateUntil, now + delay);
          this.emitStatus();
          return this.retryEvent(
            jobs.retryLater(
              run.job.id,
              owner,
              { nextRunAt: now + delay, error: failure.error, refund: true, networkFailure: false },
              now,
            ),
            failure.error,
          );
        }
        case 'transient':
        case 'aborted': {
          this.conditionEvidence(failure.error.kind === 'server' ? 'answered' : 'none');
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
              : backoffDelay(run.job.attempts, run.kind.backoff, this.random);
          return this.retryEvent(
            jobs.retryLater(
              run.job.id,
              owner,
              {
                nextRunAt: now + delay,
                error: failure.error,
                refund: false,
                networkFailure: false,
              },
              now,
            ),
            failure.error,
          );
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
  private recordingFailed(run: ActiveRun, error: unknown, now: number): void {
    const owner = (this.owner as QueueOwner).ownerId;
    this.reportStoreFailure(error);
    const failure = classifyFailure(error);
    const jobError: JobError =
      failure.type === 'lease-lost'
        ? { code: 'LEASE_LOST', message: 'lease lost', kind: 'internal', retryable: true }
        : failure.error;
    const delay = backoffDelay(run.job.attempts, run.kind.backoff, this.random);
    this.safely(() =>
      this.retryEvent(
        this.store.jobs.retryLater(
          run.job.id,
          owner,
          { nextRunAt: now + delay, error: jobError, refund: false, networkFailure: false },
          now,
        ),
        jobError,
      ),
    );
  }

  private recordFailure(run: ActiveRun, error: JobError, now: number): void {
    const owner = (this.owner as QueueOwner).ownerId;
    const failed = this.store.transaction(() => {
      const job = this.store.jobs.fail(run.job.id, owner, error, now);
      if (job !== undefined) run.kind.definition.onFailed?.(job, error);
      return job;
    });
    if (failed !== undefined) this.events.emit('job:failed', { job: failed, error });
  }

  private retryEvent(job: JobRecord | undefined, error: JobError): void {
    if (job !== undefined) this.events.emit('job:retry', { job, error, nextRunAt: job.nextRunAt });
  }

  private requeued(job: JobRecord | undefined, reason: string): void {
    if (job !== undefined) this.events.emit('job:requeued', { job, reason });
  }

  // ---- queue-wide conditions ---------------------------------------------------------------

  private raiseCondition(
    name: QueueConditionName,
    reason: { code: string; message: string },
  ): void {
    const now = this.clock.now();
    const current = this.conditions.get(name);
    let delay: number;
    if (name === 'account') delay = this.accountProbeMs;
    else if (current === undefined) delay = this.offlineProbe.baseMs;
    else delay = Math.min(this.offlineProbe.capMs, current.probeDelayMs * 2);
    this.conditions.set(name, {
      name,
      code: reason.code,
      message: reason.message,
      since: current?.since ?? now,
      nextProbeAt: now + delay,
      probeDelayMs: delay,
    });
    this.emitStatus();
  }

  /**
   * What a finished run proves: a success means online and authorised; any answer from
   * the service (a 429, a 5xx) means online.
   */
  private conditionEvidence(kind: 'success' | 'answered' | 'none'): void {
    if (kind === 'none') return;
    let changed = this.conditions.delete('offline');
    if (kind === 'success') changed = this.conditions.delete('account') || changed;
    if (changed) this.emitStatus();
  }

  // ---- lease recovery ----------------------------------------------------------------------

  private recoverLeases(): void {
    this.nothingDueUntil.clear();
    const now = this.clock.now();
    const recovered: JobRecord[] = [];
    this.safely(() => {
      for (const owner of this.store.jobs.owners()) {
        if (owner.ownerId === this.owner?.ownerId || isOwnerAlive(owner)) continue;
        this.store.transaction(() => {
          recovered.push(...this.store.jobs.releaseOwner(owner.ownerId, now));
          this.store.jobs.removeOwner(owner.ownerId);
        });
      }
      recovered.push(...this.store.jobs.recoverExpired(now));
    });
    for (const job of recovered)
      this.events.emit('job:requeued', { job, reason: 'its worker stopped' });
  }

  private scheduleRecovery(): void {
    if (this.recoveryTimer !== null || this.stopping) return;
    this.recoveryTimer = this.clock.setTimer(() => {
      this.recoveryTimer = null;
      this.recoverLeases();
      this.schedulePump();
    }, this.leaseMs);
  }

  // ---- helpers -----------------------------------------------------------------------------

  private resolveIdle(): void {
    const idle = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of idle) resolve();
  }

  private checkSettled(): void {
    // A running job is of a registered kind: not settled, and no need to ask the store.
    if (this.settledWaiters.length === 0 || this.running.size > 0) return;
    const active = this.safely(() => this.store.jobs.activeCount([...this.kinds.keys()]));
    if (active !== 0) return;
    const settled = this.settledWaiters;
    this.settledWaiters = [];
    for (const waiter of settled) waiter.resolve();
  }

  private emitStatus(): void {
    this.events.emit('queue:status', this.status());
  }

  private reportStoreFailure(error: unknown): void {
    this.events.emit('queue:error', {
      code: 'STORE_FAILED',
      message: `The job queue could not update the database: ${error instanceof Error ? error.message : String(error)}`,
    });
  }

  private safely<T>(fn: () => T): T | undefined {
    try {
      return fn();
    } catch (error) {
      this.reportStoreFailure(error);
      return undefined;
    }
  }
}

function requeue(now: number, error: JobError | null = null) {
  return { nextRunAt: now, error, refund: true, networkFailure: false, state: 'queued' as const };
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new QueueError('INVALID_OPTION', `${name} must be a positive number (got ${value}).`);
  }
  return value;
}

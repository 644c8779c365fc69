// The durable job queue. Jobs live in the store; this object claims due ones under a
// lease, runs the handler registered for their kind, and records the outcome. A crash at
// any moment leaves every job queued, running under a lease that will be recovered, or
// finished: nothing is lost, and a finished job never runs again. This class schedules
// (the pump, its claims and their batching); running a job is job-run.ts, its lease
// leases.ts, the offline and account conditions queue-conditions.ts, and recording how a
// run ended outcome-recorder.ts.
import type { JobRecord, QueueOwner, Store } from '../store/index.ts';
import { queuePausedSetting } from '../store/index.ts';
import { defaultBackoff } from './backoff.ts';
import type { BackoffPolicy } from './backoff.ts';
import { QueueError } from './job-errors.ts';
import { abortRun, jobContext, runHandler } from './job-run.ts';
import { keepLease, recoverLeases } from './leases.ts';
import { OutcomeRecorder } from './outcome-recorder.ts';
import { newOwner, retireOwner } from './owner-liveness.ts';
import { systemClock } from './queue-clock.ts';
import type { QueueClock } from './queue-clock.ts';
import { QueueConditions } from './queue-conditions.ts';
import type { QueueConditionName, QueueEvents, QueueStatus } from './queue-events.ts';
import type {
  ActiveRun,
  EnqueueOptions,
  EnqueueResult,
  JobKindDefinition,
  JobKindHandle,
  JobQueueOptions,
  RegisteredKind,
} from './queue-types.ts';
import { TypedEmitter } from './typed-emitter.ts';

export { CRASH_LOOP_LIMIT } from './job-run.ts';
export type {
  EnqueueOptions,
  EnqueueResult,
  JobContext,
  JobKindDefinition,
  JobKindHandle,
  JobQueueOptions,
  RunningJob,
} from './queue-types.ts';

export class JobQueue {
  readonly events = new TypedEmitter<QueueEvents>();
  private readonly store: Store;
  private readonly clock: QueueClock;
  private readonly random: () => number;
  private readonly leaseMs: number;
  private readonly maxConcurrency: number;
  private readonly backoff: BackoffPolicy;
  private readonly storeRetryMs: number;
  private readonly rateGate: JobQueueOptions['rateGate'];
  private readonly kinds = new Map<string, RegisteredKind>();
  private readonly running = new Map<number, ActiveRun>();
  private readonly conditions: QueueConditions;
  private readonly outcomes: OutcomeRecorder;
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
    this.maxConcurrency = positive(options.maxConcurrency ?? 14, 'maxConcurrency');
    this.backoff = { ...defaultBackoff, ...options.backoff };
    this.storeRetryMs = positive(options.storeRetryMs ?? 1_000, 'storeRetryMs');
    this.rateGate = options.rateGate;
    this.conditions = new QueueConditions({
      clock: this.clock,
      offlineProbe: options.offlineProbe ?? { baseMs: 2_000, capMs: 60_000 },
      accountProbeMs: positive(options.accountProbeMs ?? 5 * 60_000, 'accountProbeMs'),
      changed: () => this.emitStatus(),
    });
    this.outcomes = new OutcomeRecorder({
      store: this.store,
      clock: this.clock,
      random: this.random,
      events: this.events,
      conditions: this.conditions,
      ownerId: () => this.ownerId(),
      holdUntil: (until) => {
        this.gateUntil = Math.max(this.gateUntil, until);
        this.emitStatus();
      },
      reportStoreFailure: (error) => this.reportStoreFailure(error),
    });
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
    for (const run of runs) abortRun(run, 'stop');
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
    this.conditions.raise(name, reason);
  }

  /** The condition cleared (the network is back, the user logged in again): resume at once. */
  clearCondition(name: QueueConditionName): void {
    if (this.conditions.clear(name)) {
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
    if (run !== undefined) abortRun(run, 'cancel');
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
      conditions: this.conditions.list(),
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
        const probeAt = this.conditions.nextProbeAt();
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
    if (batch.length > 0) this.conditions.evidence('success');
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
      for (const { run, result } of batch) this.outcomes.settle(run, { ok: true, result });
      this.finishRuns(batch.map((d) => d.run));
      if (this.stopping && this.running.size === 0) this.resolveIdle();
      throw error;
    }
    batch.forEach(({ run }, i) => {
      const outcome = outcomes[i];
      if (outcome !== undefined && 'error' in outcome) {
        this.outcomes.recordingFailed(run, outcome.error, now);
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

  /** Jobs of this kind this queue runs now (not those of other processes). */
  runningOf(kind: string): number {
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
    run.cancelLease = keepLease(run, {
      store: this.store,
      clock: this.clock,
      leaseMs: this.leaseMs,
      ownerId: this.ownerId(),
      reportStoreFailure: (error) => this.reportStoreFailure(error),
    });
    this.events.emit('job:started', { job });
    void this.execute(run);
  }

  private async execute(run: ActiveRun): Promise<void> {
    const outcome = await runHandler(
      run,
      jobContext(run, {
        store: this.store,
        clock: this.clock,
        events: this.events,
        ownerId: this.ownerId(),
      }),
    );
    run.cancelLease();
    if (outcome.ok && run.abortReason !== 'lease-lost') {
      // Recorded by the next pump, with the claim of the next job, in one commit. That
      // pump waits for the I/O callbacks of this turn of the event loop: answers that
      // arrived together are recorded together.
      this.doneRuns.push({ run, result: outcome.result });
      if (this.doneRuns.length === 1) setImmediate(() => this.schedulePump());
      return;
    }
    this.outcomes.settle(run, outcome);
    this.running.delete(run.job.id);
    this.nothingDueUntil.delete(run.job.kind); // back to waiting, maybe
    if (!this.stopping) this.schedulePump();
    else if (this.running.size === 0) this.resolveIdle();
  }

  // ---- lease recovery ----------------------------------------------------------------------

  private recoverLeases(): void {
    this.nothingDueUntil.clear();
    const recovered: JobRecord[] = [];
    this.safely(() => recoverLeases(this.store, this.owner?.ownerId, this.clock.now(), recovered));
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

  private ownerId(): string {
    return (this.owner as QueueOwner).ownerId;
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

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new QueueError('INVALID_OPTION', `${name} must be a positive number (got ${value}).`);
  }
  return value;
}

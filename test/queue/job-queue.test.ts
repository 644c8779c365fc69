import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { spawnSync } from 'node:child_process';
import { CRASH_LOOP_LIMIT, PermanentError, TransientError } from '../../main/engine/queue/index.ts';
import type { JobContext, RunningJob } from '../../main/engine/queue/index.ts';
import { queuePausedSetting } from '../../main/engine/store/index.ts';
import { apiError, makeHarness } from './queue-harness.ts';
import type { Harness } from './queue-harness.ts';
import { deferred, ManualClock, settle } from './manual-clock.ts';
import type { Deferred } from './manual-clock.ts';

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(() => h.cleanup());

/** A harness with other queue options, replacing the default one. */
async function rebuild(options: Parameters<typeof makeHarness>[0]): Promise<Harness> {
  await h.cleanup();
  return makeHarness(options);
}

const payload = z.object({ n: z.number().int() });
type Payload = z.infer<typeof payload>;

/** A kind whose runs the test finishes by hand. */
function manualKind(kind = 'work', concurrency = 1, extra: { maxAttempts?: number } = {}) {
  const runs: { job: RunningJob<Payload>; ctx: JobContext; done: Deferred<unknown> }[] = [];
  const handle = h.queue.register(kind, {
    payload,
    concurrency,
    ...extra,
    run: (job, ctx) => {
      const done = deferred<unknown>();
      runs.push({ job, ctx, done });
      // Like a real handler: an abort ends the run (else stop() would wait for it forever).
      ctx.signal.addEventListener('abort', () => done.reject(apiError('aborted', 'ABORTED', 0)));
      return done.promise;
    },
  });
  return { handle, runs };
}

describe('running jobs', () => {
  it('runs a job, stores its result and its onDone writes in the same transaction', async () => {
    const seen: number[] = [];
    const kind = h.queue.register('double', {
      payload,
      run: async (job) => ({ doubled: job.payload.n * 2 }),
      onDone: (job, result) => {
        seen.push(job.id);
        h.t.store.settings.set(`result.${job.id}`, result);
      },
    });
    const { job } = kind.enqueue({ n: 21 }, { brandId: 'b1' });
    h.queue.start();
    await h.queue.whenSettled();
    expect(h.t.store.jobs.get(job.id)).toMatchObject({
      state: 'done',
      result: { doubled: 42 },
      attempts: 1,
      brandId: 'b1',
      leaseOwner: null,
      finishedAt: h.clock.now(),
    });
    expect(seen).toEqual([job.id]);
    expect(h.t.store.settings.getRaw(`result.${job.id}`)).toEqual({ doubled: 42 });
    expect(h.events.filter((e) => e.name.startsWith('job:')).map((e) => e.name)).toEqual([
      'job:queued',
      'job:started',
      'job:done',
    ]);
  });

  it('validates payloads on enqueue and when a stored one no longer fits', async () => {
    const kind = h.queue.register('typed', { payload, run: async () => 'ok' });
    expect(() => kind.enqueue({ n: 'five' } as unknown as Payload)).toThrowError(
      expect.objectContaining({
        code: 'INVALID_PAYLOAD',
        message: expect.stringContaining('at n'),
      }),
    );
    expect(() => h.queue.enqueue('nobody', {})).toThrowError(
      expect.objectContaining({ code: 'UNKNOWN_JOB_KIND' }),
    );
    expect(() => h.queue.register('typed', { payload, run: async () => 1 })).toThrowError(
      expect.objectContaining({ code: 'ALREADY_REGISTERED' }),
    );
    // Written by an older version with another payload shape:
    const { job } = h.t.store.jobs.enqueue(
      { kind: 'typed', payload: { legacy: true } },
      h.clock.now(),
    );
    h.queue.start();
    await h.queue.whenSettled();
    expect(h.t.store.jobs.get(job.id)).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: { code: 'INVALID_PAYLOAD', retryable: false },
    });
  });

  it('leaves jobs of kinds nobody registered alone', async () => {
    h.queue.register('known', { payload, run: async () => 1 });
    const { job } = h.t.store.jobs.enqueue({ kind: 'from-the-future', payload: {} }, h.clock.now());
    h.queue.start();
    await h.queue.whenSettled();
    expect(h.t.store.jobs.get(job.id)?.state).toBe('queued');
  });
});

describe('deduplication and order', () => {
  it('never queues the same key twice while one is active, and raises its priority', async () => {
    const { handle, runs } = manualKind();
    const first = handle.enqueue({ n: 1 }, { key: 'file:a', priority: 1 });
    const again = handle.enqueue({ n: 2 }, { key: 'file:a', priority: 5 });
    expect(first.created).toBe(true);
    expect(again.created).toBe(false);
    expect(again.job.id).toBe(first.job.id);
    expect(again.job.priority).toBe(5);
    expect(again.job.payload).toEqual({ n: 1 });
    h.queue.start();
    await settle();
    // Running counts as active too.
    expect(handle.enqueue({ n: 3 }, { key: 'file:a' }).created).toBe(false);
    runs[0]!.done.resolve('ok');
    await h.queue.whenSettled();
    // Once done, the key is free: a later change is new work.
    const later = handle.enqueue({ n: 4 }, { key: 'file:a' });
    expect(later.created).toBe(true);
    expect(h.t.store.jobs.list({ kind: 'work' }).map((j) => [j.payload, j.state])).toEqual([
      [{ n: 4 }, 'queued'],
      [{ n: 1 }, 'done'],
    ]);
  });

  it('runs higher priority first, then in order of arrival', async () => {
    const order: number[] = [];
    const kind = h.queue.register('ordered', {
      payload,
      run: async (job) => {
        order.push(job.payload.n);
      },
    });
    kind.enqueue({ n: 1 });
    kind.enqueue({ n: 2 }, { priority: 10 });
    kind.enqueue({ n: 3 });
    kind.enqueue({ n: 4 }, { priority: 10 });
    kind.enqueue({ n: 5 }, { priority: -1 });
    h.queue.start();
    await h.queue.whenSettled();
    expect(order).toEqual([2, 4, 1, 3, 5]);
  });

  it('does not start a job before its run time', async () => {
    const { handle, runs } = manualKind();
    handle.enqueue({ n: 1 }, { runAt: h.clock.now() + 10_000 });
    h.queue.start();
    await h.queue.whenIdle();
    expect(runs).toHaveLength(0);
    await h.clock.advance(10_000);
    expect(runs).toHaveLength(1);
  });
});

describe('concurrency', () => {
  it('caps running jobs per kind and over all kinds', async () => {
    h = await rebuild({ maxConcurrency: 3 });
    const a = manualKind('a', 2);
    const b = manualKind('b', 5);
    for (let n = 0; n < 5; n++) {
      a.handle.enqueue({ n });
      b.handle.enqueue({ n });
    }
    h.queue.start();
    await settle();
    expect(a.runs).toHaveLength(2);
    expect(a.runs.length + b.runs.length).toBe(3);
    a.runs[0]!.done.resolve(1);
    await settle();
    expect(a.runs.length + b.runs.length).toBe(4);
    expect(h.t.store.jobs.countsByState()).toMatchObject({ running: 3, done: 1, queued: 6 });
  });
});

describe('failures', () => {
  it('fails permanent errors at once with their reason', async () => {
    const errors = [
      apiError('client', 'UNSUPPORTED_FORMAT', 400),
      new PermanentError('FILE_TOO_LARGE', 'a.png is 12 MB; the limit is 10 MB'),
    ];
    let i = 0;
    const failedHook: string[] = [];
    const kind = h.queue.register('p', {
      payload,
      run: async () => {
        throw errors[i++];
      },
      onFailed: (_job, error) => failedHook.push(error.code),
    });
    const one = kind.enqueue({ n: 1 }).job;
    const two = kind.enqueue({ n: 2 }).job;
    h.queue.start();
    await h.queue.whenSettled();
    expect(h.t.store.jobs.get(one.id)).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: { code: 'UNSUPPORTED_FORMAT', kind: 'client', status: 400, retryable: false },
    });
    expect(h.t.store.jobs.get(two.id)).toMatchObject({
      state: 'failed',
      lastError: { code: 'FILE_TOO_LARGE', message: 'a.png is 12 MB; the limit is 10 MB' },
    });
    expect(failedHook).toEqual(['UNSUPPORTED_FORMAT', 'FILE_TOO_LARGE']);
    expect(
      h.t.store.jobs
        .recentFailures()
        .map((j) => j.id)
        .sort(),
    ).toEqual([one.id, two.id].sort());
  });

  it('runs a retry when its timer fires a little early (as Node timers may)', async () => {
    // Timers fire 1 ms before the time asked for: the job is not due yet at that moment.
    class EarlyClock extends ManualClock {
      override setTimer(fn: () => void, ms: number): () => void {
        return super.setTimer(fn, ms > 1 ? ms - 1 : ms);
      }
    }
    const clock = new EarlyClock();
    h = await rebuild({ clock, backoff: { baseMs: 1000, capMs: 1000 } });
    let runs = 0;
    const kind = h.queue.register('t', {
      payload,
      run: async () => {
        if (++runs === 1) throw apiError('server', 'INTERNAL_ERROR', 500);
        return 'ok';
      },
    });
    const { job } = kind.enqueue({ n: 1 });
    h.queue.start();
    await h.queue.whenIdle();
    expect(runs).toBe(1);
    await clock.advance(1000);
    expect(runs).toBe(2);
    expect(h.t.store.jobs.get(job.id)?.state).toBe('done');
  });

  it('retries transient errors with capped, jittered exponential backoff, then gives up', async () => {
    h = await rebuild({ backoff: { baseMs: 1000, capMs: 5000 } });
    let runs = 0;
    const kind = h.queue.register('t', {
      payload,
      maxAttempts: 5,
      run: async () => {
        runs++;
        throw apiError('server', 'INTERNAL_ERROR', 500);
      },
    });
    const { job } = kind.enqueue({ n: 1 });
    h.queue.start();
    await h.queue.whenIdle();
    // random = 0.5: delay = ceiling * 0.75; ceilings 1000, 2000, 4000, 5000 (capped).
    const expected = [750, 1500, 3000, 3750];
    for (const delay of expected) {
      const waiting = h.t.store.jobs.get(job.id)!;
      expect(waiting.state).toBe('retry-wait');
      expect(waiting.nextRunAt - h.clock.now()).toBe(delay);
      await h.clock.advance(delay - 1);
      expect(runs).toBe(expected.indexOf(delay) + 1);
      await h.clock.advance(1);
    }
    expect(runs).toBe(5);
    expect(h.t.store.jobs.get(job.id)).toMatchObject({
      state: 'failed',
      attempts: 5,
      lastError: {
        code: 'INTERNAL_ERROR',
        message: expect.stringContaining('gave up after 5 attempts'),
      },
    });
  });

  it('honours a delay a transient error asks for, and succeeds on a later attempt', async () => {
    let runs = 0;
    const kind = h.queue.register('t', {
      payload,
      run: async (_job, ctx) => {
        runs++;
        if (runs === 1)
          throw new TransientError('FILE_BUSY', 'still being written', { retryAfterMs: 4000 });
        return ctx.attempt;
      },
    });
    const { job } = kind.enqueue({ n: 1 });
    h.queue.start();
    await h.queue.whenIdle();
    expect(h.t.store.jobs.get(job.id)).toMatchObject({
      state: 'retry-wait',
      nextRunAt: h.clock.now() + 4000,
      lastError: { code: 'FILE_BUSY' },
    });
    await h.clock.advance(4000);
    expect(h.t.store.jobs.get(job.id)).toMatchObject({
      state: 'done',
      result: 2,
      attempts: 2,
      lastError: null,
    });
  });

  it('treats unknown errors as transient', async () => {
    let runs = 0;
    const kind = h.queue.register('t', {
      payload,
      run: async () => {
        if (++runs === 1) throw new TypeError('x is undefined');
      },
    });
    const { job } = kind.enqueue({ n: 1 });
    h.queue.start();
    await h.queue.whenIdle();
    expect(h.t.store.jobs.get(job.id)?.lastError).toMatchObject({
      code: 'INTERNAL_ERROR',
      message: 'x is undefined',
    });
    await h.clock.advance(1000);
    expect(h.t.store.jobs.get(job.id)?.state).toBe('done');
  });

  it('refunds runs that died with their worker: a job interrupted more often than its attempts still runs', async () => {
    const kind = h.queue.register('quit', { payload, maxAttempts: 2, run: async () => 'finished' });
    const { job } = kind.enqueue({ n: 1 });
    // The app was quit (killed) mid-job three times: more than the job's own two attempts.
    for (let i = 0; i < 3; i++) {
      h.t.store.jobs.claimNext(['quit'], `gone-${i}`, h.clock.now(), h.clock.now());
      h.t.store.jobs.recoverExpired(h.clock.now());
    }
    expect(h.t.store.jobs.get(job.id)).toMatchObject({ attempts: 0, state: 'queued' });
    h.queue.start();
    await h.queue.whenSettled();
    expect(h.t.store.jobs.get(job.id)).toMatchObject({ state: 'done', result: 'finished' });
  });

  it('fails a job that keeps dying with its worker (crash loop) instead of retrying forever', async () => {
    const kind = h.queue.register('loop', { payload, maxAttempts: 3, run: async () => 'never' });
    const { job } = kind.enqueue({ n: 1 });
    // Workers claimed it and died, as many times as a crash loop takes.
    for (let i = 0; i < CRASH_LOOP_LIMIT; i++) {
      h.t.store.jobs.claimNext(['loop'], `dead-${i}`, h.clock.now(), h.clock.now());
      h.t.store.jobs.recoverExpired(h.clock.now());
    }
    h.queue.start();
    await h.queue.whenSettled();
    expect(h.t.store.jobs.get(job.id)).toMatchObject({
      state: 'failed',
      lastError: { code: 'TOO_MANY_ATTEMPTS' },
    });
  });
});

describe('the Retry-After gate', () => {
  it('holds every job until the service allows more, without charging the attempt', async () => {
    const { handle, runs } = manualKind('r', 2);
    const first = handle.enqueue({ n: 1 }).job;
    handle.enqueue({ n: 2 });
    handle.enqueue({ n: 3 });
    h.queue.start();
    await settle();
    runs[0]!.done.reject(
      apiError('rate-limited', 'TOO_MANY_REQUESTS', 429, { retryAfterMs: 7000 }),
    );
    await settle();
    expect(h.queue.status().rateLimitedUntil).toBe(h.clock.now() + 7000);
    expect(h.t.store.jobs.get(first.id)).toMatchObject({ state: 'retry-wait', attempts: 0 });
    runs[1]!.done.resolve('ok');
    await settle();
    expect(runs).toHaveLength(2); // job 3 waits for the gate although a slot is free
    await h.clock.advance(6999);
    expect(runs).toHaveLength(2);
    await h.clock.advance(1);
    // The throttled job waits behind the one that was due before it; its attempt was not charged.
    expect(runs.map((r) => r.job.payload.n)).toEqual([1, 2, 3, 1]);
    runs[2]!.done.resolve('ok');
    await settle();
    expect(runs[3]!.ctx.attempt).toBe(1);
  });

  it("waits for the API client's gate", async () => {
    const gate = { pausedUntil: undefined as number | undefined };
    h = await rebuild({ rateGate: gate });
    const { handle, runs } = manualKind();
    gate.pausedUntil = h.clock.now() + 3000;
    handle.enqueue({ n: 1 });
    h.queue.start();
    await h.queue.whenIdle();
    expect(runs).toHaveLength(0);
    expect(h.queue.status().rateLimitedUntil).toBe(h.clock.now() + 3000);
    await h.clock.advance(3000);
    gate.pausedUntil = undefined;
    await h.clock.advance(1);
    expect(runs).toHaveLength(1);
  });
});

describe('account-level conditions and offline', () => {
  it('pauses the whole queue on 401 and resumes when the condition clears', async () => {
    const { handle, runs } = manualKind('a', 1);
    const first = handle.enqueue({ n: 1 }).job;
    handle.enqueue({ n: 2 });
    h.queue.start();
    await settle();
    runs[0]!.done.reject(apiError('auth', 'UNAUTHORIZED', 401));
    await h.queue.whenIdle();
    expect(h.queue.status()).toMatchObject({
      paused: true,
      conditions: [{ name: 'account', code: 'UNAUTHORIZED' }],
    });
    expect(h.t.store.jobs.get(first.id)).toMatchObject({ state: 'queued', attempts: 0 });
    await h.clock.advance(60_000);
    expect(runs).toHaveLength(1);
    h.queue.clearCondition('account'); // the user logged in again
    await settle();
    expect(h.queue.status().paused).toBe(false);
    expect(runs).toHaveLength(2);
    expect(runs[1]!.job.id).toBe(first.id);
  });

  it('pauses on a banned account and probes with one job later', async () => {
    h = await rebuild({ accountProbeMs: 10_000 });
    const { handle, runs } = manualKind('a', 3);
    for (let n = 0; n < 4; n++) handle.enqueue({ n });
    h.queue.start();
    await settle();
    runs[0]!.done.reject(apiError('banned', 'ACCOUNT_BANNED', 403));
    runs[1]!.done.reject(apiError('banned', 'ACCOUNT_BANNED', 403));
    runs[2]!.done.reject(apiError('banned', 'ACCOUNT_BANNED', 403));
    await h.queue.whenIdle();
    expect(runs).toHaveLength(3);
    await h.clock.advance(10_000);
    expect(runs).toHaveLength(4); // exactly one probe
    runs[3]!.done.resolve('ok');
    await settle();
    expect(h.queue.status().paused).toBe(false);
    expect(runs.length).toBe(7); // the probe's success resumed the other three
  });

  it('pauses when offline, probes with growing delays, and resumes by itself', async () => {
    h = await rebuild({
      offlineProbe: { baseMs: 2000, capMs: 5000 },
      backoff: { baseMs: 100, capMs: 100 },
    });
    const { handle, runs } = manualKind('o', 1);
    const first = handle.enqueue({ n: 1 }).job;
    handle.enqueue({ n: 2 });
    h.queue.start();
    await settle();
    runs[0]!.done.reject(apiError('network', 'NETWORK_ERROR', 0));
    await h.queue.whenIdle();
    expect(h.queue.status().conditions).toMatchObject([
      { name: 'offline', nextProbeAt: h.clock.now() + 2000 },
    ]);
    expect(h.t.store.jobs.get(first.id)).toMatchObject({
      state: 'retry-wait',
      attempts: 0,
      networkFailures: 1,
    });
    await h.clock.advance(1999);
    expect(runs).toHaveLength(1);
    await h.clock.advance(1);
    expect(runs).toHaveLength(2); // the probe
    runs[1]!.done.reject(apiError('network', 'NETWORK_ERROR', 0));
    await settle();
    expect(h.queue.status().conditions[0]!.nextProbeAt).toBe(h.clock.now() + 4000);
    await h.clock.advance(4000);
    expect(runs).toHaveLength(3);
    runs[2]!.done.resolve('back online');
    await settle();
    expect(h.queue.status()).toMatchObject({ paused: false, conditions: [] });
    runs[3]?.done.resolve('ok');
    await settle();
    runs[4]?.done.resolve('ok');
    await h.queue.whenSettled();
    expect(h.t.store.jobs.countsByState(['o'])).toMatchObject({ done: 2, failed: 0 });
    const statuses = h.events
      .filter((e) => e.name === 'queue:status')
      .map((e) => (e.payload as { paused: boolean }).paused);
    expect(statuses).toContain(true);
    expect(statuses.at(-1)).toBe(false);
  });

  it('lets the user pause and resume, and remembers a pause across restarts', async () => {
    const { handle, runs } = manualKind();
    handle.enqueue({ n: 1 });
    h.queue.pause();
    h.queue.start();
    await h.queue.whenIdle();
    expect(runs).toHaveLength(0);
    expect(h.t.store.settings.read(queuePausedSetting)).toBe(true);
    const queue = await h.restart();
    const seen: number[] = [];
    queue.register('work', {
      payload,
      run: async (job) => {
        seen.push(job.payload.n);
      },
    });
    queue.start();
    await queue.whenIdle();
    expect(queue.status()).toMatchObject({ userPaused: true, paused: true });
    expect(seen).toEqual([]);
    queue.resume();
    await queue.whenSettled();
    expect(seen).toEqual([1]);
  });
});

describe('leases', () => {
  it('picks up a job another process queued when it next looks at the store', async () => {
    h = await rebuild({ leaseMs: 3000 });
    const ran: number[] = [];
    const kind = h.queue.register('x', {
      payload,
      run: async (job) => void ran.push(job.payload.n),
    });
    kind.enqueue({ n: 1 });
    h.queue.start();
    await h.queue.whenSettled();
    // Written straight into the database, as another process does: no enqueue() here.
    h.t.store.jobs.enqueue({ kind: 'x', payload: { n: 2 } }, h.clock.now());
    await h.clock.advance(3000);
    await h.queue.whenIdle();
    expect(ran).toEqual([1, 2]);
  });

  it('returns expired leases of other workers to the queue on start', async () => {
    const kind = h.queue.register('l', { payload, run: async () => 'ran' });
    const { job } = kind.enqueue({ n: 1 });
    h.t.store.jobs.registerOwner({
      ownerId: 'far:1:x',
      host: 'another-host',
      pid: 1,
      startedAt: 0,
    });
    h.t.store.jobs.claimNext(['l'], 'far:1:x', h.clock.now(), h.clock.now() + 1000);
    await h.clock.advance(1000);
    h.queue.start();
    await h.queue.whenSettled();
    // The dead worker's run is refunded and counted as an interruption.
    expect(h.t.store.jobs.get(job.id)).toMatchObject({
      state: 'done',
      attempts: 1,
      facts: { _interruptions: 1 },
    });
    expect(h.events.some((e) => e.name === 'job:requeued')).toBe(true);
  });

  it('waits for the lease of a live worker elsewhere, then recovers it when it expires', async () => {
    h = await rebuild({ leaseMs: 5000 });
    const kind = h.queue.register('l', { payload, run: async () => 'ran' });
    const { job } = kind.enqueue({ n: 1 });
    h.t.store.jobs.registerOwner({
      ownerId: 'far:1:x',
      host: 'another-host',
      pid: 1,
      startedAt: 0,
    });
    h.t.store.jobs.claimNext(['l'], 'far:1:x', h.clock.now(), h.clock.now() + 5000);
    h.queue.start();
    await h.queue.whenIdle();
    expect(h.t.store.jobs.get(job.id)?.state).toBe('running');
    await h.clock.advance(5000);
    await h.queue.whenSettled();
    expect(h.t.store.jobs.get(job.id)?.state).toBe('done');
  });

  it('releases the jobs of a dead process on this host at once', async () => {
    const { hostname } = await import('node:os');
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(child.stdout.toString());
    const kind = h.queue.register('l', { payload, run: async () => 'ran' });
    const { job } = kind.enqueue({ n: 1 });
    const owner = `${hostname()}:${deadPid}:gone`;
    h.t.store.jobs.registerOwner({ ownerId: owner, host: hostname(), pid: deadPid, startedAt: 0 });
    h.t.store.jobs.claimNext(['l'], owner, h.clock.now(), h.clock.now() + 3_600_000);
    h.queue.start();
    await h.queue.whenSettled();
    expect(h.t.store.jobs.get(job.id)?.state).toBe('done');
    expect(h.t.store.jobs.owners().map((o) => o.ownerId)).not.toContain(owner);
  });

  it('renews the lease while a job runs', async () => {
    h = await rebuild({ leaseMs: 3000 });
    const { handle, runs } = manualKind();
    const { job } = handle.enqueue({ n: 1 });
    h.queue.start();
    await settle();
    runs[0]!.ctx.progress(3, 10);
    await h.clock.advance(10_000);
    expect(h.t.store.jobs.get(job.id)).toMatchObject({
      state: 'running',
      leaseExpiresAt: h.clock.now() + 3000,
      progress: { done: 3, total: 10 },
    });
    expect(h.events.find((e) => e.name === 'job:progress')?.payload).toEqual({
      jobId: job.id,
      kind: 'work',
      done: 3,
      total: 10,
    });
    runs[0]!.done.resolve('ok');
    await settle();
    expect(h.t.store.jobs.get(job.id)?.state).toBe('done');
  });

  it('stops a run whose lease was taken over, without writing over the new owner', async () => {
    const { handle, runs } = manualKind();
    const { job } = handle.enqueue({ n: 1 });
    h.queue.start();
    await settle();
    const owner = h.t.store.jobs.get(job.id)!.leaseOwner!;
    h.t.store.jobs.releaseOwner(owner, h.clock.now()); // someone recovered it
    h.t.store.jobs.claimNext(['work'], 'new-owner', h.clock.now(), h.clock.now() + 60_000);
    expect(() => runs[0]!.ctx.remember({ sent: true })).toThrowError(
      expect.objectContaining({ code: 'LEASE_LOST' }),
    );
    expect(runs[0]!.ctx.signal.aborted).toBe(true);
    runs[0]!.done.resolve('late success');
    await settle();
    expect(h.t.store.jobs.get(job.id)).toMatchObject({
      state: 'running',
      leaseOwner: 'new-owner',
      facts: {},
    });
  });
});

describe('facts remembered before sending', () => {
  it('persists facts and the idempotency key across attempts and restarts', async () => {
    const keys: string[] = [];
    const register = (queue = h.queue, fail = true) =>
      queue.register('create', {
        payload,
        run: async (_job, ctx) => {
          const key = ctx.idempotencyKey();
          keys.push(key);
          ctx.remember({ sentAt: h.clock.now(), attempt: ctx.attempt });
          if (fail) throw apiError('server', 'INTERNAL_ERROR', 500);
          return key;
        },
      });
    const { job } = register().enqueue({ n: 1 });
    h.queue.start();
    await h.queue.whenIdle();
    const stored = h.t.store.jobs.get(job.id)!;
    expect(stored.facts).toEqual({ idempotencyKey: keys[0], sentAt: h.clock.now(), attempt: 1 });
    const queue = await h.restart();
    register(queue, false);
    queue.start();
    await h.clock.advance(1000);
    await queue.whenSettled();
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(h.t.store.jobs.get(job.id)).toMatchObject({
      state: 'done',
      result: keys[0],
      facts: { attempt: 2 },
    });
  });
});

describe('cancel, retry and stop', () => {
  it('cancels a waiting job at once and a running one through its signal', async () => {
    const { handle, runs } = manualKind();
    const running = handle.enqueue({ n: 1 }).job;
    const waiting = handle.enqueue({ n: 2 }).job;
    h.queue.start();
    await settle();
    expect(h.queue.cancel(waiting.id)?.state).toBe('cancelled');
    h.queue.cancel(running.id);
    expect(runs[0]!.ctx.signal.aborted).toBe(true);
    await h.queue.whenSettled();
    expect(h.t.store.jobs.get(running.id)?.state).toBe('cancelled');
    expect(runs).toHaveLength(1);
    expect(h.events.filter((e) => e.name === 'job:cancelled')).toHaveLength(2);
  });

  it('runs a failed job again on request', async () => {
    let fail = true;
    const kind = h.queue.register('r', {
      payload,
      run: async () => {
        if (fail) throw new PermanentError('NOPE', 'nope');
        return 'fine';
      },
    });
    const { job } = kind.enqueue({ n: 1 }, { key: 'k' });
    h.queue.start();
    await h.queue.whenSettled();
    fail = false;
    expect(h.queue.retry(job.id)?.state).toBe('queued');
    await h.queue.whenSettled();
    expect(h.t.store.jobs.get(job.id)).toMatchObject({ state: 'done', attempts: 1 });
  });

  it('on stop, interrupts running jobs and puts them back without charging the attempt', async () => {
    const { handle, runs } = manualKind();
    const { job } = handle.enqueue({ n: 1 });
    h.queue.start();
    await settle();
    expect(runs).toHaveLength(1);
    const settled = h.queue.whenSettled();
    await h.queue.stop();
    await expect(settled).rejects.toMatchObject({ code: 'STOPPED' });
    expect(h.t.store.jobs.get(job.id)).toMatchObject({
      state: 'queued',
      attempts: 0,
      leaseOwner: null,
    });
  });
});

describe('bookkeeping failures', () => {
  it('reports a failed claim and tries again later', async () => {
    const kind = h.queue.register('s', { payload, run: async () => 'ok' });
    const { job } = kind.enqueue({ n: 1 });
    h.t.store.setWriteHook((_n, sql) => {
      if (sql.includes("state = 'running', lease_owner")) throw new Error('disk I/O error');
    });
    h.queue.start();
    await h.queue.whenIdle();
    expect(h.events.find((e) => e.name === 'queue:error')?.payload).toMatchObject({
      code: 'STORE_FAILED',
      message: expect.stringContaining('disk I/O error'),
    });
    h.t.store.setWriteHook(undefined);
    await h.clock.advance(1000);
    await h.queue.whenSettled();
    expect(h.t.store.jobs.get(job.id)?.state).toBe('done');
  });

  it('runs a job again when recording its success failed', async () => {
    let runs = 0;
    const kind = h.queue.register('s', {
      payload,
      run: async () => ++runs,
      onDone: () => {
        if (runs === 1) throw new Error('hook failed');
      },
    });
    const { job } = kind.enqueue({ n: 1 });
    h.queue.start();
    await h.queue.whenIdle();
    expect(h.t.store.jobs.get(job.id)).toMatchObject({
      state: 'retry-wait',
      lastError: { message: 'hook failed' },
    });
    await h.clock.advance(1000);
    expect(h.t.store.jobs.get(job.id)).toMatchObject({ state: 'done', result: 2 });
  });
});

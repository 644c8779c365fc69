// `sync --once`: enqueue a full reconcile, let the queue work until it settles, and report
// what was done and what failed. The pass ends early, as a failure, when the queue cannot
// make progress: the account is refused, or the service stays unreachable.
import { watchQueueHalt } from '../queue/index.ts';
import type { JobError, JobRecord } from '../store/index.ts';
import type { JobQueue } from '../queue/index.ts';
import type { Store } from '../store/index.ts';

/** A feature's section of a sync report: lines for people, plus data for --json. */
export interface FeatureReport {
  /** Human lines, e.g. "Uploaded 3 files to Acme", "Skipped a.gif: GIF is not accepted: …". */
  summary: string[];
  [field: string]: unknown;
}

/**
 * What a sync pass needs of the engine. Named here, so that this module depends on no
 * engine module and the engine (which runs passes) imports this one, not the other way round.
 */
export interface SyncPassEngine {
  readonly store: Store;
  readonly queue: JobQueue;
  readonly features: readonly {
    readonly name: string;
    holdReport?(): () => void;
    report?(since: number): FeatureReport;
  }[];
  reconcile(): Promise<void>;
  describe(job: JobRecord): { area: string; subject: string };
}

export interface SyncPassOptions {
  signal?: AbortSignal;
  /** How long the service may stay unreachable before the pass gives up (default 15 s). */
  offlineGraceMs?: number;
}

export interface SyncFailure {
  area: string;
  subject: string;
  brandId: string | null;
  code: string;
  message: string;
}

export interface SyncReport {
  ok: boolean;
  startedAt: string;
  finishedAt: string;
  jobs: { done: number; failed: number };
  failures: SyncFailure[];
  /** Why the pass stopped before the queue settled, if it did. */
  halted: { code: string; message: string } | null;
  /** Each feature's own section (files uploaded and skipped, exports installed, …). */
  sections: Record<string, FeatureReport>;
}

export async function runSyncPass(
  engine: SyncPassEngine,
  options: SyncPassOptions = {},
): Promise<SyncReport> {
  const since = engine.store.now();
  const startedAt = new Date(since).toISOString();
  const failed = new Map<number, { job: JobRecord; error: JobError }>();
  let done = 0;
  const offs = [
    engine.queue.events.on('job:done', () => void done++),
    engine.queue.events.on('job:failed', (event) => void failed.set(event.job.id, event)),
  ];
  // Features keep what their report needs from here until the report is made.
  const releases = engine.features.map((feature) => feature.holdReport?.());
  let halted: SyncReport['halted'];
  const sections: SyncReport['sections'] = {};
  try {
    engine.queue.start();
    await engine.reconcile();
    halted = await settleOrHalt(engine, options);
    for (const feature of engine.features) {
      const section = feature.report?.(since);
      if (section !== undefined) sections[feature.name] = section;
    }
  } finally {
    for (const off of offs) off();
    for (const release of releases) release?.();
  }
  const failures = [...failed.values()].map(({ job, error }) => ({
    ...engine.describe(job),
    brandId: job.brandId,
    code: error.code,
    message: error.message,
  }));
  return {
    ok: failures.length === 0 && halted === null,
    startedAt,
    finishedAt: new Date(engine.store.now()).toISOString(),
    jobs: { done, failed: failures.length },
    failures,
    halted,
    sections,
  };
}

/** Resolves null when the queue settled, or the reason it cannot. */
function settleOrHalt(
  engine: SyncPassEngine,
  options: SyncPassOptions,
): Promise<SyncReport['halted']> {
  return new Promise((resolve) => {
    const stopWatching = watchQueueHalt(
      engine.queue,
      { ...options, abortedMessage: 'the sync was interrupted' },
      resolve,
    );
    engine.queue.whenSettled().then(
      () => {
        stopWatching();
        resolve(null);
      },
      (error: unknown) => {
        stopWatching();
        resolve({
          code: 'QUEUE_STOPPED',
          message: error instanceof Error ? error.message : String(error),
        });
      },
    );
  });
}

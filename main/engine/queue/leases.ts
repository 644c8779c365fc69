// Leases: a running job's lease is renewed every third of its length (a lost one aborts the
// run), and the jobs of dead workers and of expired leases go back to the queue.
import type { JobRecord, Store } from '../store/index.ts';
import { abortRun } from './job-run.ts';
import { isOwnerAlive } from './owner-liveness.ts';
import type { QueueClock } from './queue-clock.ts';
import type { ActiveRun } from './queue-types.ts';

export interface LeaseParts {
  store: Store;
  clock: QueueClock;
  leaseMs: number;
  ownerId: string;
  reportStoreFailure: (error: unknown) => void;
}

/** Renews the run's lease until the returned function is called. */
export function keepLease(run: ActiveRun, parts: LeaseParts): () => void {
  let cancel = (): void => {};
  const tick = (): void => {
    const now = parts.clock.now();
    try {
      const kept = parts.store.jobs.renewLease(
        run.job.id,
        parts.ownerId,
        now + parts.leaseMs,
        run.progress,
      );
      if (kept === 'lost') return abortRun(run, 'lease-lost');
      if (kept === 'cancel-requested') abortRun(run, 'cancel');
    } catch (error) {
      parts.reportStoreFailure(error);
    }
    cancel = parts.clock.setTimer(tick, Math.max(1, Math.floor(parts.leaseMs / 3)));
  };
  cancel = parts.clock.setTimer(tick, Math.max(1, Math.floor(parts.leaseMs / 3)));
  return () => cancel();
}

/**
 * Returns to the queue the jobs of workers that are gone (other than `ownerId`) and of
 * leases that expired; throws when the store does (nothing recovered then is lost).
 */
export function recoverLeases(
  store: Store,
  ownerId: string | undefined,
  now: number,
  recovered: JobRecord[],
): void {
  for (const owner of store.jobs.owners()) {
    if (owner.ownerId === ownerId || isOwnerAlive(owner)) continue;
    store.transaction(() => {
      recovered.push(...store.jobs.releaseOwner(owner.ownerId, now));
      store.jobs.removeOwner(owner.ownerId);
    });
  }
  recovered.push(...store.jobs.recoverExpired(now));
}

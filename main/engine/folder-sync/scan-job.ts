// A brand folder's reconcile as a job of the durable queue, so that `sync --once` waits for
// it like for any other work: the queue settles only once every folder was looked at and
// every upload it queued is done. The scan itself is shared with the watcher's rescans.
import { z } from 'zod';
import type { JobContext, JobQueue } from '../queue/index.ts';
import { TransientError } from '../queue/index.ts';
import { SCAN_KIND } from './file-keys.ts';
import type { BrandScanSummary } from './folder-reconcile.ts';

export const ScanPayload = z.object({ brandId: z.string().min(1) });
export type ScanPayload = z.infer<typeof ScanPayload>;

export interface ScanJobDeps {
  queue: JobQueue;
  /** The brand's scan (or the one under way that already covers this request). */
  scan(brandId: string): Promise<BrandScanSummary>;
  /** Fires when the folder sync stops (the engine closes). */
  stopped: AbortSignal;
}

export function registerScanJob(deps: ScanJobDeps) {
  return deps.queue.register<ScanPayload>(SCAN_KIND, {
    payload: ScanPayload,
    concurrency: 1,
    // A scan is harmless to repeat: a run killed again and again must not fail it.
    maxAttempts: 50,
    async run(job, ctx) {
      const closed = new Promise<'closed'>((resolve) => {
        if (deps.stopped.aborted) resolve('closed');
        deps.stopped.addEventListener('abort', () => resolve('closed'), { once: true });
      });
      let outcome: BrandScanSummary | 'closed';
      try {
        outcome = await Promise.race([deps.scan(job.payload.brandId), closed]);
      } catch (error) {
        if (!deps.stopped.aborted) throw error;
        outcome = 'closed';
      }
      if (outcome !== 'closed') return outcome;
      return interrupted(ctx);
    },
  });
}

/**
 * The engine is closing and stopped the scan: wait for the queue to stop this job too, so
 * that it goes back to the queue as interrupted (not as a failed attempt).
 */
async function interrupted(ctx: JobContext): Promise<never> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 10_000);
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
  throw new TransientError('INTERRUPTED', 'The folder scan was interrupted; it runs again.');
}

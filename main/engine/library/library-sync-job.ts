// The queue job that mirrors one brand's Library. One active job per brand (its key), so
// two refreshes of the same Library never run at once.
import { z } from 'zod';
import { isApiError } from '../api/index.ts';
import type { EnqueueOptions, JobKindDefinition } from '../queue/index.ts';
import type { LibraryMirror, MirrorResult } from './library-mirror.ts';

export const librarySyncJobKind = 'library.sync';

export const LibrarySyncPayload = z.object({
  brandId: z.string().min(1),
  mode: z.enum(['auto', 'full', 'refresh']).default('auto'),
});
export type LibrarySyncPayload = z.infer<typeof LibrarySyncPayload>;

/** A sync that did not run because the brand is gone from the service. */
export interface LibrarySyncSkipped {
  brandId: string;
  skipped: 'deleted-remotely';
}
export type LibrarySyncResult = MirrorResult | LibrarySyncSkipped;

export interface LibrarySyncJobOptions {
  /** Whether the store already knows the brand was deleted on the service (then: skipped). */
  deletedRemotely?: (brandId: string) => boolean;
}

export function librarySyncJob(
  mirror: LibraryMirror,
  options: LibrarySyncJobOptions = {},
): JobKindDefinition<LibrarySyncPayload> {
  return {
    payload: LibrarySyncPayload,
    // Brands are mirrored one after another: the requests share one rate limit anyway.
    concurrency: 1,
    run: async (job, ctx): Promise<LibrarySyncResult> => {
      const { brandId } = job.payload;
      const skipped: LibrarySyncSkipped = { brandId, skipped: 'deleted-remotely' };
      if (options.deletedRemotely?.(brandId) === true) return skipped;
      try {
        return await mirror.syncBrand(brandId, {
          mode: job.payload.mode,
          signal: ctx.signal,
          onProgress: (read) => ctx.progress(read),
        });
      } catch (error) {
        // Deleted between the listing and this job: the next listing marks it; not a failure.
        if (isApiError(error) && error.code === 'BRAND_NOT_FOUND') return skipped;
        throw error;
      }
    },
  };
}

/** Enqueue options for a brand's sync: deduplicated per brand. */
export function librarySyncKey(brandId: string): EnqueueOptions {
  return { key: `${librarySyncJobKind}:${brandId}`, brandId };
}

// The queue job that mirrors one brand's Library. One active job per brand (its key), so
// two refreshes of the same Library never run at once.
import { z } from 'zod';
import type { EnqueueOptions, JobKindDefinition } from '../queue/index.ts';
import type { LibraryMirror, MirrorResult } from './library-mirror.ts';

export const librarySyncJobKind = 'library.sync';

export const LibrarySyncPayload = z.object({
  brandId: z.string().min(1),
  mode: z.enum(['auto', 'full', 'refresh']).default('auto'),
});
export type LibrarySyncPayload = z.infer<typeof LibrarySyncPayload>;

export function librarySyncJob(mirror: LibraryMirror): JobKindDefinition<LibrarySyncPayload> {
  return {
    payload: LibrarySyncPayload,
    // Brands are mirrored one after another: the requests share one rate limit anyway.
    concurrency: 1,
    run: async (job, ctx): Promise<MirrorResult> =>
      mirror.syncBrand(job.payload.brandId, {
        mode: job.payload.mode,
        signal: ctx.signal,
        onProgress: (read) => ctx.progress(read),
      }),
  };
}

/** Enqueue options for a brand's sync: deduplicated per brand. */
export function librarySyncKey(brandId: string): EnqueueOptions {
  return { key: `${librarySyncJobKind}:${brandId}`, brandId };
}

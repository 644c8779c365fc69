// Sending a failed file again, on the user's word (the window's Retry): the row waits again
// and the pipeline takes the file as it is on disk, so a file changed or gone since is
// handled as any other change, and the upload job is the usual one (same idempotency rules).
import { CodedError } from '../core/coded-error.ts';
import type { Engine } from '../core/engine.ts';
import type { JobRecord } from '../store/index.ts';
import { UPLOAD_KIND } from './file-keys.ts';
import { FolderSync } from './folder-sync-feature.ts';

export class RetryFileError extends CodedError<'NOT_FOUND' | 'NOT_FAILED' | 'NO_FOLDER_SYNC'> {}

export async function retryFile(engine: Engine, brandId: string, relPath: string): Promise<void> {
  const row = engine.store.files.getByPath(brandId, relPath);
  if (row === undefined || row.relPath !== relPath) {
    throw new RetryFileError('NOT_FOUND', `${relPath} is not a file of this brand's folder.`);
  }
  if (row.state !== 'failed') {
    throw new RetryFileError(
      'NOT_FAILED',
      `${relPath} did not fail (it is ${row.state}): nothing to retry.`,
    );
  }
  const folderSync = engine.features.find((f) => f instanceof FolderSync);
  if (folderSync === undefined) {
    throw new RetryFileError('NO_FOLDER_SYNC', 'Folder sync is not running here.');
  }
  engine.store.files.setState(row.id, 'waiting', {
    bytesSent: 0,
    reason: 'sent again at your request',
  });
  await folderSync.pipeline.resubmit(brandId, relPath);
}

/**
 * A failed upload job is retried through its files: the job alone would find no file waiting
 * (a failed file waits for a change). Returns false for any other job.
 */
export async function retryUploadJob(engine: Engine, job: JobRecord): Promise<boolean> {
  if (job.kind !== UPLOAD_KIND || job.state !== 'failed' || job.brandId === null) return false;
  const sha256 = (job.payload as { sha256?: unknown } | null)?.sha256;
  if (typeof sha256 !== 'string') return false;
  const failed = engine.store.files
    .findBySha(job.brandId, sha256)
    .filter((f) => f.state === 'failed');
  for (const row of failed) await retryFile(engine, job.brandId, row.relPath);
  return failed.length > 0;
}

// One file hashed and, for the area it was found in, judged by its bytes (read once, whole,
// for both): what a hasher thread does for each path it is sent, and what HasherPool does
// itself for the first few files, while its thread is still starting.
import {
  classifyBytes,
  MAX_UPLOAD_BYTES,
  type UploadArea,
  type Verdict,
  verdictBySize,
} from './file-classifier.ts';
import { type HashResult, sha256FileSync } from './sha256-file.ts';
import type { WholeFileBuffer } from './whole-file-buffer.ts';

export type HashWithVerdict = HashResult & { verdict?: Verdict };

/**
 * `buffer`: the reads of a file that is only hashed (area null) go through it. `whole`: what
 * a file to judge is read into, for a caller that hashes one file at a time (the bytes are
 * judged across an await); else each such file gets a buffer of its own.
 */
export async function hashOne(
  absPath: string,
  area: UploadArea | null,
  buffer: Buffer,
  whole?: WholeFileBuffer,
): Promise<HashWithVerdict> {
  if (area === null) return sha256FileSync(absPath, buffer);
  const keep =
    whole === undefined ? { upTo: MAX_UPLOAD_BYTES } : { upTo: MAX_UPLOAD_BYTES, into: whole };
  const hashed = sha256FileSync(absPath, buffer, undefined, keep);
  if (hashed.status !== 'hashed') return hashed;
  const { bytes, ...result } = hashed;
  const verdict =
    verdictBySize(hashed.stat.size) ??
    (bytes === undefined ? undefined : await classifyBytes(bytes, area));
  return verdict === undefined ? result : { ...result, verdict };
}

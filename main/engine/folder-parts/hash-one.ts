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

export type HashWithVerdict = HashResult & { verdict?: Verdict };

/** `buffer`: the reads of a file that is only hashed (area null) go through it. */
export async function hashOne(
  absPath: string,
  area: UploadArea | null,
  buffer: Buffer,
): Promise<HashWithVerdict> {
  if (area === null) return sha256FileSync(absPath, buffer);
  const hashed = sha256FileSync(absPath, buffer, undefined, MAX_UPLOAD_BYTES);
  if (hashed.status !== 'hashed') return hashed;
  const { bytes, ...result } = hashed;
  const verdict =
    verdictBySize(hashed.stat.size) ??
    (bytes === undefined ? undefined : await classifyBytes(bytes, area));
  return verdict === undefined ? result : { ...result, verdict };
}

// A hasher thread of HasherPool: receives batches of paths, answers their HashResults in
// the same order. One reusable read buffer per thread. A path sent with the area it was
// found in is also judged by its bytes here (read once, whole, for both): the main
// thread then neither reads nor parses it again.
import { parentPort } from 'node:worker_threads';
import {
  classifyBytes,
  MAX_UPLOAD_BYTES,
  type UploadArea,
  type Verdict,
  verdictBySize,
} from './file-classifier.ts';
import { type HashResult, sha256FileSync } from './sha256-file.ts';

export interface HashRequest {
  id: number;
  paths: string[];
  /** Per path: the area to judge it for, or null to hash only. */
  areas?: (UploadArea | null)[];
}

export type HashWithVerdict = HashResult & { verdict?: Verdict };

export interface HashResponse {
  id: number;
  results: HashWithVerdict[];
}

const READ_BUFFER_BYTES = 1024 * 1024;
const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);

async function hashOne(absPath: string, area: UploadArea | null): Promise<HashWithVerdict> {
  if (area === null) return sha256FileSync(absPath, buffer);
  const hashed = sha256FileSync(absPath, buffer, undefined, MAX_UPLOAD_BYTES);
  if (hashed.status !== 'hashed') return hashed;
  const { bytes, ...result } = hashed;
  const verdict =
    verdictBySize(hashed.stat.size) ??
    (bytes === undefined ? undefined : await classifyBytes(bytes, area));
  return verdict === undefined ? result : { ...result, verdict };
}

// Batches one after another, in order (a verdict may await the file-type parser).
let chain = Promise.resolve();
parentPort?.on('message', (request: HashRequest) => {
  chain = chain.then(async () => {
    const results: HashWithVerdict[] = [];
    for (const [i, p] of request.paths.entries()) {
      results.push(await hashOne(p, request.areas?.[i] ?? null));
    }
    const response: HashResponse = { id: request.id, results };
    parentPort?.postMessage(response);
  });
});

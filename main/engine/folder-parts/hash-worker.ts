// A hasher thread of HasherPool: receives batches of paths, answers their HashResults in
// the same order. Its read buffers are reused from file to file (whole-file-buffer.ts says
// why). A path sent with the area it was found in is also judged by its bytes here
// (hash-one.ts): the main thread then neither reads nor parses it again.
import { parentPort } from 'node:worker_threads';
import type { UploadArea } from './file-classifier.ts';
import { hashOne, type HashWithVerdict } from './hash-one.ts';
import { WholeFileBuffer } from './whole-file-buffer.ts';

export type { HashWithVerdict } from './hash-one.ts';

export interface HashRequest {
  id: number;
  paths: string[];
  /** Per path: the area to judge it for, or null to hash only. */
  areas?: (UploadArea | null)[];
}

export interface HashResponse {
  id: number;
  results: HashWithVerdict[];
}

const READ_BUFFER_BYTES = 1024 * 1024;
const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
// Safe to share: the chain below hashes and judges one file at a time.
const whole = new WholeFileBuffer();

// Batches one after another, in order (a verdict may await the file-type parser).
let chain = Promise.resolve();
parentPort?.on('message', (request: HashRequest) => {
  chain = chain.then(async () => {
    const results: HashWithVerdict[] = [];
    for (const [i, p] of request.paths.entries()) {
      results.push(await hashOne(p, request.areas?.[i] ?? null, buffer, whole));
    }
    const response: HashResponse = { id: request.id, results };
    parentPort?.postMessage(response);
  });
});

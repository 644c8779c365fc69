// A hasher thread of HasherPool: receives batches of paths, answers their HashResults in
// the same order. One reusable read buffer per thread.
import { parentPort } from 'node:worker_threads';
import { sha256FileSync } from './sha256-file.ts';

export interface HashRequest {
  id: number;
  paths: string[];
}

export interface HashResponse {
  id: number;
  results: ReturnType<typeof sha256FileSync>[];
}

const READ_BUFFER_BYTES = 1024 * 1024;
const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);

parentPort?.on('message', (request: HashRequest) => {
  const response: HashResponse = {
    id: request.id,
    results: request.paths.map((p) => sha256FileSync(p, buffer)),
  };
  parentPort?.postMessage(response);
});

// One HTTP exchange for the API calls: node:http with a keep-alive agent, a time limit, an
// AbortSignal, upload progress, and the whole (small) answer read into memory.
//
// Why not a client library (got was used before): its per-request option handling cost about
// twice the CPU of bare fetch for a small GET (bench/client-overhead), which kept the client
// at 0.4-0.5 of fetch's throughput. The calls already have their own retries, gate and error
// translation, so they need only the exchange itself. Downloads: download-request.ts.
import type { ClientRequest, IncomingHttpHeaders } from 'node:http';
import { http, https } from './node-http.ts';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface Exchange {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** A list of chunks is bytes already in memory, sent in order with progress (uploads). */
  body?: Uint8Array | string | NodeJS.ReadableStream | readonly Uint8Array[];
  /** Total time limit; with `idle`, the limit applies to silence instead (large uploads). */
  timeoutMs: number;
  idle?: boolean;
  signal?: AbortSignal;
  onUploadProgress?: (progress: { transferred: number; total: number | undefined }) => void;
  /** A connection of its own instead of a pooled keep-alive one (see `ExchangeError.stale`). */
  freshSocket?: boolean;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A failure without an answer; `sent` tells whether the request may have reached the server. */
export class ExchangeError extends Error {
  readonly code: string;
  readonly sent: boolean;
  readonly timeout: boolean;
  /**
   * The request was given a reused keep-alive connection that had already closed, and not a
   * byte of it left (Node's `request.reusedSocket` case, when the server closes an idle
   * connection as it is handed out). Not sent, and not a sign of being offline: it may go
   * again at once on a fresh connection, a one-shot call too.
   *
   * Once bytes left on a reused connection, a close before the answer cannot be told from a
   * server that processed the request and then lost the connection: that stays uncertain.
   * One-shot calls avoid the question by never taking a pooled connection (http.ts).
   */
  readonly stale: boolean;
  constructor(code: string, sent: boolean, timeout = false, stale = false) {
    super(code);
    this.name = 'ExchangeError';
    this.code = code;
    this.sent = sent;
    this.timeout = timeout;
    this.stale = stale;
  }
}

/** The keep-alive pools (exported for tests that need to see a pooled connection). */
export const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

/** Transport codes that prove the request never left. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/**
 * A transport failure as an ExchangeError: its code, and whether the request may have left.
 * `stale`: a reused connection that closed before any byte of this request left.
 */
export function transportFailure(error: unknown, connected: boolean, stale = false): ExchangeError {
  const code =
    typeof (error as { code?: unknown })?.code === 'string'
      ? (error as { code: string }).code
      : 'ERROR';
  return new ExchangeError(code, connected && !NOT_SENT.has(code) && !stale, false, stale);
}

/** Calls `then` once the request has a connected socket (at once for a reused one). */
export function onConnected(request: ClientRequest, then: () => void): void {
  request.on('socket', (socket) => {
    if (!socket.connecting) then();
    else socket.once('connect', then);
  });
}

export function exchange(init: Exchange): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const { url } = init;
    const lib = url.protocol === 'https:' ? https : http;
    const agent = init.freshSocket
      ? false
      : url.protocol === 'https:'
        ? agents['https:']
        : agents['http:'];
    let connected = false;
    let answered = false;
    // A reused connection's byte count when this request got it: unchanged at a failure means
    // nothing of this request left.
    let writtenBefore: number | undefined;
    let settled = false;
    const finish = (error: ExchangeError | null, answer?: Answer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      init.signal?.removeEventListener('abort', onAbort);
      // An answer before the whole body left (an early error): abandon the rest of the body.
      if (error || !request.writableFinished) request.destroy();
      if (error) reject(error);
      else resolve(answer as Answer);
    };
    const fail = (error: unknown): void => {
      const socket = request.socket;
      const stale =
        writtenBefore !== undefined &&
        !answered &&
        socket !== null &&
        socket.bytesWritten === writtenBefore;
      finish(transportFailure(error, connected, stale));
    };
    const onTimeout = (): void => finish(new ExchangeError('ETIMEDOUT', connected, true));
    const onAbort = (): void => finish(new ExchangeError('ABORT_ERR', connected));

    // Aborted before anything was sent: no request at all (destroying one that was never
    // sent would emit an error nobody is listening for yet).
    if (init.signal?.aborted) {
      settled = true;
      return reject(new ExchangeError('ABORT_ERR', false));
    }
    const request = lib.request(url, { method: init.method, headers: init.headers, agent });
    // First listener on the request: every later destroy() reports here, never uncaught.
    request.on('error', fail);
    let timer = setTimeout(onTimeout, init.timeoutMs);
    const touch = init.idle
      ? (): void => {
          clearTimeout(timer);
          timer = setTimeout(onTimeout, init.timeoutMs);
        }
      : (): void => {};
    init.signal?.addEventListener('abort', onAbort, { once: true });

    onConnected(request, () => (connected = true));
    request.on('socket', (socket) => {
      if (request.reusedSocket) writtenBefore = socket.bytesWritten;
    });
    request.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        touch();
      });
      response.on('error', fail);
      response.on('aborted', () => fail({ code: 'ECONNRESET' }));
      response.on('end', () => {
        if (!response.complete) return fail({ code: 'ECONNRESET' });
        finish(null, {
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        });
      });
    });

    const body = init.body;
    if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) {
      request.end(body);
      return;
    }
    let transferred = 0;
    const total = Number(init.headers['content-length']) || undefined;
    const report = init.onUploadProgress;
    if (Array.isArray(body)) {
      writeChunks(request, body as readonly Uint8Array[], (n) => {
        transferred += n;
        touch();
        report?.({ transferred, total });
      });
      return;
    }
    const counted = Readable.from(
      (async function* () {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          transferred += chunk.length;
          touch();
          yield chunk;
          report?.({ transferred, total });
        }
      })(),
    );
    // A body error (the file changed, a read failed) fails the exchange with its own code.
    pipeline(counted, request).catch(fail);
  });
}

// Progress is counted in slices this big: fine enough for a progress bar, few enough writes.
const SLICE = 1024 * 1024;

/**
 * Writes bytes already in memory, a slice at a time: each slice is counted once the socket
 * took it, and a full socket buffer is waited out (the server reads at its own pace). An
 * early answer destroys the request; writing then stops.
 */
function writeChunks(
  request: ClientRequest,
  chunks: readonly Uint8Array[],
  onWritten: (bytes: number) => void,
): void {
  const slices: Uint8Array[] = [];
  for (const chunk of chunks) {
    for (let at = 0; at < chunk.length; at += SLICE) slices.push(chunk.subarray(at, at + SLICE));
  }
  let next = 0;
  const writeMore = (): void => {
    while (next < slices.length) {
      if (request.destroyed) return;
      const slice = slices[next++] as Uint8Array;
      const more = request.write(slice, (error) => {
        if (!error) onWritten(slice.length);
      });
      if (!more) {
        request.once('drain', writeMore);
        return;
      }
    }
    request.end();
  };
  writeMore();
}

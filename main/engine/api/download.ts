// Downloads to disk: streamed to `dest.part`, resumed with `Range` when a partial file
// exists and the server answers 206, length checked, renamed into place only when
// complete, so a half-written file never takes the place of a good one.
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { ApiError } from './errors.ts';
import { openDownload, RedirectError, type DownloadAnswer } from './download-request.ts';
import { abortedError } from './clock.ts';
import { invalidResponse, USER_AGENT, type ErrorContext, type Http } from './http.ts';
import { invalidInput } from './input.ts';

export interface DownloadProgress {
  received: number;
  total: number | undefined;
}

export interface DownloadOptions {
  /** Bytes the file must have (when the caller knows it, e.g. a media file's fileSize). */
  expectedSize?: number;
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
}

export interface DownloadResult {
  path: string;
  bytes: number;
  /** Whether bytes of an earlier attempt were kept (a 206 answer). */
  resumed: boolean;
}

const CONTEXT: ErrorContext = { method: 'GET', endpoint: 'GET {download}' };
/** Largest error body read to explain a failed download. */
const MAX_ERROR_BODY = 64 * 1024;

export async function downloadToFile(
  http: Http,
  url: string,
  dest: string,
  options: DownloadOptions = {},
): Promise<DownloadResult> {
  let target: URL;
  try {
    // A path such as /img/<id> is on the service's origin.
    target = new URL(url, http.baseUrl + '/');
  } catch {
    throw invalidInput(CONTEXT.endpoint, `not a download URL: ${JSON.stringify(url)}`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw invalidInput(CONTEXT.endpoint, `download URL must be http(s), got ${target.protocol}`);
  }
  const expected = options.expectedSize;
  if (expected !== undefined && (!Number.isSafeInteger(expected) || expected < 0)) {
    throw invalidInput(
      CONTEXT.endpoint,
      `expected size must be a whole number of bytes, got ${expected}`,
    );
  }
  const ownOrigin = target.origin === http.origin;
  const signal = http.signalFor(options.signal);
  const part = `${dest}.part`;
  let failures = 0;
  let resumed = false;

  for (;;) {
    if (signal?.aborted) throw abortedError(CONTEXT.endpoint);
    // Only requests that carry the key count against its rate limit.
    if (ownOrigin)
      await http.gate.wait(signal).catch(() => Promise.reject(abortedError(CONTEXT.endpoint)));
    let offset = await sizeOf(part);
    if (expected !== undefined && offset > expected) {
      await fs.promises.rm(part, { force: true });
      offset = 0;
    }
    try {
      const outcome = await fetchInto(http, target, part, offset, ownOrigin, signal, options);
      if (outcome.kind === 'restart') {
        await fs.promises.rm(part, { force: true });
        continue;
      }
      resumed ||= outcome.resumed;
      const bytes = await sizeOf(part);
      const total = expected ?? outcome.total;
      if (total !== undefined && bytes !== total) {
        if (bytes > total) await fs.promises.rm(part, { force: true });
        throw new ApiError({
          kind: 'network',
          code: 'INCOMPLETE_DOWNLOAD',
          status: 0,
          message: `The download ended after ${bytes} of ${total} bytes.`,
          endpoint: CONTEXT.endpoint,
        });
      }
      await fs.promises.rename(part, dest);
      return { path: dest, bytes, resumed };
    } catch (error) {
      if (isLocalFileError(error)) {
        // The disk, not the network: retrying the download cannot help.
        throw new ApiError({
          kind: 'client',
          code: 'LOCAL_FILE_ERROR',
          status: 0,
          message: `Cannot write ${part} (${(error as { code?: string }).code ?? 'error'}).`,
          endpoint: CONTEXT.endpoint,
        });
      }
      const apiError =
        error instanceof ApiError ? error : http.errorFromTransport(error, CONTEXT, signal);
      if (apiError.kind === 'aborted') throw apiError;
      if (!ownOrigin) {
        // Another host (the export's storage): its answers say nothing about the key or the
        // service. A refusal or a rate limit fails this download at once; a cut is retried here.
        if (apiError.kind !== 'network' && apiError.kind !== 'server') {
          throw offOriginFailure(apiError, target);
        }
        failures++;
        if (failures > http.retry.limit) throw offOriginFailure(apiError, target);
        await http.clock.sleep(http.backoff(failures), signal).catch(() => {
          throw abortedError(CONTEXT.endpoint);
        });
        continue;
      }
      if (apiError.kind === 'rate-limited') {
        if (apiError.retryAfterMs !== undefined)
          http.gate.pauseUntil(http.clock.now() + apiError.retryAfterMs);
      } else if (!apiError.retryable) {
        throw apiError;
      }
      failures++;
      if (failures > http.retry.limit) throw apiError;
      if (apiError.kind !== 'rate-limited' || apiError.retryAfterMs === undefined) {
        await http.clock.sleep(http.backoff(failures), signal).catch(() => {
          throw abortedError(CONTEXT.endpoint);
        });
      }
    }
  }
}

/**
 * A failure at a download host other than the service: the job that asked for the file fails
 * with the reason and tries again on its own backoff ('server': retryable, never the account
 * or the connection as a whole, never the key's rate gate).
 */
export function offOriginFailure(error: ApiError, target: URL): ApiError {
  const why =
    error.kind === 'network'
      ? error.message
      : `${error.status} ${error.code}${error.retryAfterMs === undefined ? '' : `, retry after ${Math.ceil(error.retryAfterMs / 1000)} s`}`;
  return new ApiError({
    kind: 'server',
    code: 'DOWNLOAD_FAILED',
    status: error.status,
    message: `The download from ${target.host} failed (${why}); it is tried again later.`,
    endpoint: CONTEXT.endpoint,
    data: { host: target.host, code: error.code, status: error.status },
    // The job's own backoff decides when (a storage host's Retry-After is not the service's).
    cause: error,
  });
}

type FetchOutcome =
  { kind: 'done'; resumed: boolean; total: number | undefined } | { kind: 'restart' };

async function fetchInto(
  http: Http,
  target: URL,
  part: string,
  offset: number,
  ownOrigin: boolean,
  signal: AbortSignal | undefined,
  options: DownloadOptions,
): Promise<FetchOutcome> {
  http.noteSend(CONTEXT);
  // identity: Range and lengths count the bytes on the wire.
  const headers: Record<string, string> = {
    accept: '*/*',
    'accept-encoding': 'identity',
    'user-agent': USER_AGENT,
  };
  if (offset > 0) headers.range = `bytes=${offset}-`;
  let response: DownloadAnswer;
  try {
    response = await openDownload({
      url: target,
      headers,
      auth: http.authHeaders(), // sent only while the URL is on the service's origin
      authOrigin: http.origin,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (error instanceof RedirectError) throw invalidResponse(CONTEXT.endpoint, error.message);
    throw error;
  }
  const stream = response.body;
  const status = response.status;
  if (status === 416 && offset > 0) {
    stream.destroy();
    return { kind: 'restart' };
  }
  if (status < 200 || status >= 300) {
    const body = await readSome(stream);
    throw http.errorFromResponse(CONTEXT, status, body, response.headers);
  }
  let start = 0;
  let total: number | undefined;
  const length = parseLength(response.headers['content-length']);
  if (status === 206) {
    const range = parseContentRange(response.headers['content-range']);
    if (range === undefined || range.start !== offset) {
      // A range we did not ask for: start over rather than splice mismatched bytes.
      stream.destroy();
      if (offset === 0)
        throw invalidResponse(CONTEXT.endpoint, 'a 206 answer without a matching Content-Range');
      return { kind: 'restart' };
    }
    start = offset;
    total = range.total ?? (length !== undefined ? offset + length : undefined);
  } else {
    total = length;
  }
  let received = start;
  const progress = options.onProgress;
  const expectedTotal = options.expectedSize ?? total;
  progress?.({ received, total: expectedTotal });
  await pipeline(
    stream,
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        received += chunk.length;
        progress?.({ received, total: expectedTotal });
        yield chunk;
      }
    },
    fs.createWriteStream(part, { flags: start > 0 ? 'a' : 'w' }),
    ...(signal ? [{ signal }] : []),
  );
  return { kind: 'done', resumed: start > 0, total };
}

function isLocalFileError(error: unknown): boolean {
  return (
    typeof (error as { path?: unknown })?.path === 'string' &&
    typeof (error as { syscall?: unknown }).syscall === 'string'
  );
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await fs.promises.stat(file)).size;
  } catch {
    return 0;
  }
}

async function readSome(stream: AsyncIterable<Buffer> & { destroy(): void }): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= MAX_ERROR_BODY) break;
    }
  } catch {
    // The body only explains the failure; a broken one leaves a generic message.
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks);
}

function parseLength(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

/** `bytes start-end/total` (total may be `*`). */
export function parseContentRange(
  value: string | undefined,
): { start: number; end: number; total: number | undefined } | undefined {
  const match = value === undefined ? null : /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value.trim());
  if (!match) return undefined;
  return {
    start: Number(match[1]),
    end: Number(match[2]),
    total: match[3] === '*' ? undefined : Number(match[3]),
  };
}

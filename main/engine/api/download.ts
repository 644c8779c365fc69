// Downloads to disk: streamed to `dest.part`, resumed with `Range` when a partial file
// exists and the server answers 206, length checked, renamed into place only when
// complete, so a half-written file never takes the place of a good one.
//
// A host that answers and then cuts the body off is there: that is never "offline". Each cut
// is resumed where it stopped; a try that brings nothing new counts, and after CUT_LIMIT of
// them (or TRY_LIMIT tries in all) the download fails as DOWNLOAD_CUT_OFF. A storage host's
// Retry-After (429, 503) holds that host's downloads; one that asks longer than a sync should
// wait fails the download at once, and no request goes there before its time.
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { ApiError } from './errors.ts';
import { openDownload, RedirectError, type DownloadAnswer } from './download-request.ts';
import { abortedError } from './clock.ts';
import {
  invalidResponse,
  parseRetryAfter,
  USER_AGENT,
  type ErrorContext,
  type Http,
} from './http.ts';
import { ExchangeError } from './transport.ts';
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
  const sleep = (ms: number): Promise<void> =>
    http.clock.sleep(ms, signal).catch(() => {
      throw abortedError(CONTEXT.endpoint);
    });
  /** Failures with no answer or an error answer (refused, 5xx): the client's retry limit. */
  let failures = 0;
  /** Tries cut off without bringing a byte further than any try before. */
  let cuts = 0;
  let tries = 0;
  /** The most bytes any try left in `.part`: a try that does not pass it made no progress. */
  let best = -1;
  let waitedMs = 0;
  let resumed = false;
  let lastTotal: number | undefined;

  for (;;) {
    if (signal?.aborted) throw abortedError(CONTEXT.endpoint);
    // Only requests that carry the key count against its rate limit.
    if (ownOrigin)
      await http.gate.wait(signal).catch(() => Promise.reject(abortedError(CONTEXT.endpoint)));
    else {
      // A storage host that asked to wait (Retry-After) is not asked again before its time.
      const wait = (hostPausedUntil.get(target.origin) ?? 0) - http.clock.now();
      if (wait > 0) {
        if (waitedMs + wait > HOST_WAIT_BUDGET_MS) throw hostBusy(target, wait);
        waitedMs += wait;
        await sleep(wait);
      }
    }
    let offset = await sizeOf(part);
    if (expected !== undefined && offset > expected) {
      await fs.promises.rm(part, { force: true });
      offset = 0;
    }
    if (best < 0) best = offset;
    tries++;
    try {
      const outcome = await fetchInto(http, target, part, offset, ownOrigin, signal, options);
      if (outcome.kind === 'restart') {
        // The host cannot resume this part: from the start (a try of its own, so it is bounded).
        await fs.promises.rm(part, { force: true });
        best = 0;
        if (tries >= TRY_LIMIT) throw cutOff(target, cuts, 0, lastTotal);
        continue;
      }
      resumed ||= outcome.resumed;
      const bytes = await sizeOf(part);
      const total = expected ?? outcome.total;
      lastTotal = total;
      if (total !== undefined && bytes !== total) {
        if (bytes > total) await fs.promises.rm(part, { force: true });
        // The host said the file was whole, and it is not the size the caller knows.
        if (outcome.total === bytes || bytes > total) throw sizeMismatch(bytes, total);
        throw new CutError(total);
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
      if (error instanceof CutError) {
        // The host answered and the body stopped short (or the connection dropped once it was
        // open): the host is there, so this is no sign of being offline. Resumed where it
        // stopped; a try that brings nothing new counts against the download.
        if (signal?.aborted) throw abortedError(CONTEXT.endpoint);
        const now = await sizeOf(part);
        if (error.total !== undefined) lastTotal = error.total;
        if (now > best) best = now;
        else cuts++;
        if (cuts >= CUT_LIMIT || tries >= TRY_LIMIT) throw cutOff(target, tries, now, lastTotal);
        if (now <= offset) await sleep(Math.min(http.backoff(cuts), MAX_CUT_WAIT_MS));
        continue;
      }
      if (error instanceof ApiError && error.code === 'INCOMPLETE_DOWNLOAD') throw error;
      const apiError =
        error instanceof ApiError ? error : http.errorFromTransport(error, CONTEXT, signal);
      if (apiError.kind === 'aborted') throw apiError;
      if (!ownOrigin) {
        // Another host (the export's storage): its answers say nothing about the key or the
        // service. Its Retry-After holds this host's downloads; a refusal fails the download.
        if (apiError.retryAfterMs !== undefined) {
          hostPausedUntil.set(
            target.origin,
            Math.max(
              hostPausedUntil.get(target.origin) ?? 0,
              http.clock.now() + apiError.retryAfterMs,
            ),
          );
          failures++;
          if (failures > http.retry.limit) throw offOriginFailure(apiError, target);
          continue;
        }
        if (apiError.kind !== 'network' && apiError.kind !== 'server') {
          throw offOriginFailure(apiError, target);
        }
        failures++;
        if (failures > http.retry.limit) throw offOriginFailure(apiError, target);
        await sleep(http.backoff(failures));
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
        await sleep(http.backoff(failures));
      }
    }
  }
}

/** Tries of one download cut off without progress before it fails. */
export const CUT_LIMIT = 5;
/** Longest wait between two tries of a cut-off download (a sync that fails one ends promptly). */
const MAX_CUT_WAIT_MS = 1_000;
/** Tries of one download in all (a host that gives a few bytes a time makes progress forever). */
export const TRY_LIMIT = 20;
/**
 * Longest a download waits for a storage host's Retry-After, in all, before it fails and the
 * file is left for a later sync (a sync is not held for minutes by one host).
 */
export const HOST_WAIT_BUDGET_MS = 60_000;
/** Storage hosts that asked to wait (Retry-After), by origin: until when, on the client's clock. */
const hostPausedUntil = new Map<string, number>();

/** A body that stopped short, or a connection that dropped once open: the host is reachable. */
class CutError extends Error {
  readonly total: number | undefined;
  constructor(total: number | undefined, cause?: unknown) {
    super('cut off', cause === undefined ? undefined : { cause });
    this.name = 'CutError';
    this.total = total;
  }
}

function cutOff(target: URL, tries: number, received: number, total: number | undefined): ApiError {
  const of = total === undefined ? '' : ` of ${total}`;
  return new ApiError({
    // 'server': the host answered; later may work. Never 'network': it is not offline.
    kind: 'server',
    code: 'DOWNLOAD_CUT_OFF',
    status: 0,
    message: `The download from ${target.host} was cut off ${tries} times (${received}${of} bytes arrived).`,
    endpoint: CONTEXT.endpoint,
    data: { host: target.host, tries, received, ...(total === undefined ? {} : { total }) },
  });
}

function sizeMismatch(bytes: number, total: number): ApiError {
  return new ApiError({
    kind: 'server',
    code: 'INCOMPLETE_DOWNLOAD',
    status: 0,
    message: `The download ended after ${bytes} of ${total} bytes.`,
    endpoint: CONTEXT.endpoint,
  });
}

function hostBusy(target: URL, waitMs: number): ApiError {
  const seconds = Math.ceil(waitMs / 1000);
  return new ApiError({
    kind: 'server',
    code: 'DOWNLOAD_FAILED',
    status: 0,
    message: `The download from ${target.host} failed (the host asked to wait ${seconds} s more); it is tried again later.`,
    endpoint: CONTEXT.endpoint,
    retryAfterMs: waitMs,
    data: { host: target.host, retryAfterMs: waitMs },
  });
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
    data: {
      host: target.host,
      code: error.code,
      status: error.status,
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    },
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
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
    // Connected, and the connection dropped before an answer: the host is there.
    if (error instanceof ExchangeError && error.sent && !error.timeout)
      throw new CutError(undefined, error);
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
    const error = http.errorFromResponse(CONTEXT, status, body, response.headers);
    // A storage host's Retry-After (429, 503) is honoured as well as the service's.
    if (!ownOrigin && error.retryAfterMs === undefined && (status === 429 || status === 503)) {
      const after = parseRetryAfter(response.headers['retry-after'], Date.now());
      if (after !== undefined) return Promise.reject(withRetryAfter(error, after));
    }
    throw error;
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
  // The answer is read by the source itself, not handed to pipeline: a body cut off then ends
  // the source, and the file stream still writes every byte that arrived before the cut
  // (handed to pipeline, the cut would destroy the file stream with writes still pending,
  // and a try that brought bytes would count as one that brought none).
  let cut: unknown;
  try {
    await pipeline(
      async function* () {
        try {
          for await (const chunk of stream as AsyncIterable<Buffer>) {
            received += chunk.length;
            progress?.({ received, total: expectedTotal });
            yield chunk;
          }
        } catch (error) {
          if (signal?.aborted) throw error;
          cut = error;
        }
      },
      fs.createWriteStream(part, { flags: start > 0 ? 'a' : 'w' }),
      ...(signal ? [{ signal }] : []),
    );
  } catch (error) {
    if (isLocalFileError(error) || signal?.aborted) throw error;
    throw new CutError(total, error);
  }
  if (cut !== undefined) throw new CutError(total, cut);
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

function withRetryAfter(error: ApiError, retryAfterMs: number): ApiError {
  return new ApiError({
    kind: error.kind,
    code: error.code,
    status: error.status,
    message: error.message,
    ...(error.data === undefined ? {} : { data: error.data }),
    endpoint: error.endpoint,
    retryAfterMs,
  });
}

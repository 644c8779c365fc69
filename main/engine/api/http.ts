// The single path every call to the service takes: auth header, the per-key rate gate,
// timeouts, cancellation, the retry rules of the interface document, response validation,
// and the translation of every failure into an ApiError. The exchange itself is
// transport.ts (download-request.ts for downloads). Transport errors never leave this
// module: they are read for their code and dropped, so no URL or header rides along.
import { backoffDelay } from '../queue/backoff.ts';
import type { z } from 'zod';
import { ApiError, CLIENT_ERROR_CODES, type ApiErrorKind } from './errors.ts';
import { abortedError, realClock, type Clock } from './clock.ts';
import { rateGateFor, type RateGate } from './rate-gate.ts';
import { Pacer, pacerOf } from './pacer.ts';
import { ErrorEnvelope, envelope } from './schemas.ts';
import { exchange, ExchangeError, type Answer } from './transport.ts';

export interface Credentials {
  /** `api-key` goes in `x-api-key`; `bearer` (an OAuth access token) in `Authorization`. Never both. */
  kind: 'api-key' | 'bearer';
  secret: string;
}

export interface RetryPolicy {
  /** Retries after network errors and 5xx (so `limit + 1` sends at most). */
  limit: number;
  /** Retries after 429 answers. */
  rateLimitedLimit: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  limit: 4,
  rateLimitedLimit: 8,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
};
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * What may be re-sent when the outcome of a send is uncertain (no answer, or a 5xx):
 * - `resend`: the request is idempotent (GET, PUT, DELETE), carries an Idempotency-Key and
 *   the same body (POST /brands, POST /brand-skills), or the service deduplicates it
 *   (image upload: `existing`; apply/discard: docs/service.md, Edit states);
 * - `once`: re-sending could do the work twice (image edit costs credits; a signed
 *   upload's token is single-use): re-sent only when nothing reached the service.
 */
export type ResendRule = 'resend' | 'once';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface UploadProgress {
  transferred: number;
  total: number | undefined;
}

export interface CallSpec<S extends z.ZodType | null> {
  method: HttpMethod;
  /** "METHOD /path/{template}": names the call in errors; never holds IDs or tokens. */
  endpoint: string;
  /** Path below the base URL, IDs already encoded; or an absolute URL (staged upload). */
  path: string;
  query?: Record<string, string | number | boolean | null | undefined>;
  json?: unknown;
  /** A fresh body per send (a stream cannot be sent twice), with its own headers (length, type). */
  body?: () => Promise<FreshBody> | FreshBody;
  headers?: Record<string, string>;
  /** false for the signed upload endpoints: the path token is the credential. */
  auth?: boolean;
  /** The `data` schema of the success envelope; null when the body is not read (raw PUT). */
  schema: S;
  /** Accept a 2xx with an empty body (some DELETEs answer 204). */
  allowEmpty?: boolean;
  resend: ResendRule;
  /** Set for endpoints only docs/service.md assumes: a 404/405 then means "feature unavailable". */
  assumedFeature?: string;
  /** Added to the request timeout (a `wait=true` GET holds the connection that long). */
  extraTimeoutMs?: number;
  /** Uploads: idle timeouts instead of a total, so a large file on a slow link is not cut. */
  transfer?: boolean;
  signal?: AbortSignal;
  onUploadProgress?: (progress: UploadProgress) => void;
  /**
   * After an uncertain send, a later answer may prove the earlier one succeeded (a DELETE
   * retried after a lost answer gets 404): return `{value}` to resolve with, or undefined.
   */
  resolveAfterUncertain?: (error: ApiError) => { value: Output<S> } | undefined;
}

export interface FreshBody {
  /** A list of chunks: bytes already in memory, sent in order (a multipart upload). */
  body: Uint8Array | string | NodeJS.ReadableStream | readonly Uint8Array[];
  headers?: Record<string, string>;
}
export type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HttpOptions {
  baseUrl: string;
  credentials: Credentials;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  rateGate?: RateGate;
  /** false: no pacing after 429s (only the Retry-After gate), for comparisons. */
  pace?: boolean;
  signal?: AbortSignal;
  clock?: Clock;
  /** Random source of the backoff jitter (tests may fix it). */
  random?: () => number;
  /** Observes every request as it leaves (activity views, tests); `at` is on `clock`. */
  onRequest?: (info: { method: HttpMethod; endpoint: string; at: number }) => void;
}

/** How every request names the client, downloads included. */
export const USER_AGENT = 'brand-sync';
const BASE_HEADERS = { 'user-agent': USER_AGENT, accept: 'application/json' } as const;

/** Tries after a failure that sent nothing (the host refused or was not found) before giving up. */
const NOT_SENT_RETRIES = 2;

/** Transport status codes that prove the request never reached the service. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ERR_INVALID_URL',
]);

/** What error translation needs to know about a call. */
export type ErrorContext = Pick<CallSpec<null>, 'endpoint' | 'method' | 'assumedFeature'>;

export interface Http {
  readonly baseUrl: string;
  readonly origin: string;
  readonly gate: RateGate;
  /** The key's pacer: spacing of requests after the service refused some (429). */
  readonly pacer: Pacer;
  readonly clock: Clock;
  readonly retry: RetryPolicy;
  call<S extends z.ZodType | null>(spec: CallSpec<S>): Promise<Output<S>>;
  /** Headers that authenticate a request to the service origin (for downloads). */
  authHeaders(): Record<string, string>;
  /** Combines the client-wide signal with a call's own. */
  signalFor(signal: AbortSignal | undefined): AbortSignal | undefined;
  /** Delay before retry `attempt` (1-based): exponential, capped, with jitter. */
  backoff(attempt: number): number;
  /** Tells the onRequest observer that a request leaves now (for sends outside call()). */
  noteSend(context: ErrorContext): void;
  /** The ApiError for a non-2xx answer (body: the raw error body, possibly empty). */
  errorFromResponse(
    context: ErrorContext,
    status: number,
    body: Uint8Array,
    headers: Record<string, string | string[] | undefined>,
  ): ApiError;
  /** The ApiError for a failure without an HTTP answer (the error is read, never kept). */
  errorFromTransport(
    error: unknown,
    context: ErrorContext,
    signal: AbortSignal | undefined,
  ): ApiError;
}

export function createHttp(options: HttpOptions): Http {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const origin = new URL(baseUrl).origin;
  const { kind, secret } = options.credentials;
  if (kind !== 'api-key' && kind !== 'bearer') {
    throw new TypeError(`credentials.kind must be "api-key" or "bearer"`);
  }
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new TypeError('credentials.secret must be a non-empty string');
  }
  const clock = options.clock ?? realClock;
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const gate = options.rateGate ?? rateGateFor(secret, clock, origin);
  const pacer = options.pace === false ? new Pacer(clock, { off: true }) : pacerOf(gate, clock);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const random = options.random ?? Math.random;
  const clientSignal = options.signal;

  const authHeaders = (): Record<string, string> =>
    kind === 'api-key' ? { 'x-api-key': secret } : { authorization: `Bearer ${secret}` };

  const redact = (text: string): string =>
    text.includes(secret) ? text.split(secret).join('[redacted]') : text;

  const signalFor = (signal: AbortSignal | undefined): AbortSignal | undefined => {
    if (signal && clientSignal) return AbortSignal.any([signal, clientSignal]);
    return signal ?? clientSignal;
  };

  // The engine's one backoff formula (equal jitter), on this client's retry policy.
  const backoff = (attempt: number): number =>
    backoffDelay(attempt, { baseMs: retry.baseDelayMs, capMs: retry.maxDelayMs }, random);

  async function sendOnce<S extends z.ZodType | null>(
    spec: CallSpec<S>,
    signal: AbortSignal | undefined,
    fresh: FreshBody | undefined,
    freshSocket: boolean,
  ): Promise<{ ok: true; value: Output<S> } | { ok: false; error: ApiError; stale?: boolean }> {
    const url = buildUrl(baseUrl, spec.path, spec.query);
    const headers: Record<string, string> = { ...BASE_HEADERS, ...spec.headers };
    if (spec.auth !== false) Object.assign(headers, authHeaders());
    let body: FreshBody['body'] | undefined = fresh?.body;
    if (fresh?.headers) Object.assign(headers, fresh.headers);
    if (spec.json !== undefined) {
      body = JSON.stringify(spec.json);
      headers['content-type'] = 'application/json';
    }
    if (typeof body === 'string' || body instanceof Uint8Array) {
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    let answer: Answer;
    try {
      answer = await exchange({
        method: spec.method,
        url,
        headers,
        ...(body !== undefined ? { body } : {}),
        timeoutMs: timeoutMs + (spec.extraTimeoutMs ?? 0),
        idle: spec.transfer === true,
        ...(signal ? { signal } : {}),
        ...(spec.onUploadProgress ? { onUploadProgress: spec.onUploadProgress } : {}),
        freshSocket,
      });
    } catch (error) {
      const stale = error instanceof ExchangeError && error.stale;
      return { ok: false, error: transportError(error, spec, signal), stale };
    }
    const status = answer.status;
    if (status >= 200 && status < 300) return parseSuccess(spec, answer.body);
    return { ok: false, error: httpError(spec, status, answer.body, answer.headers) };
  }

  function transportError(
    error: unknown,
    spec: ErrorContext,
    signal: AbortSignal | undefined,
  ): ApiError {
    if (signal?.aborted) return abortedError(spec.endpoint);
    const code =
      typeof (error as { code?: unknown })?.code === 'string'
        ? (error as { code: string }).code
        : '';
    if (code === 'FILE_CHANGED') {
      // The local file changed mid-send: a retry now would race the writer again.
      return new ApiError({
        kind: 'client',
        code,
        status: 0,
        message: `${spec.endpoint}: the file changed while it was being sent.`,
        endpoint: spec.endpoint,
      });
    }
    // An ExchangeError knows whether the request left; for a stream's own errors (a
    // download's body cut short) the code tells.
    const isTimeout = error instanceof ExchangeError && error.timeout;
    const notSent = error instanceof ExchangeError ? !error.sent : NOT_SENT_CODES.has(code);
    // Only the transport code is named; no library message (it may hold the URL) is kept.
    const what = isTimeout
      ? 'no answer within the time limit'
      : code
        ? `connection failed (${code})`
        : 'connection failed';
    return new ApiError({
      kind: 'network',
      code: isTimeout ? CLIENT_ERROR_CODES.timeout : CLIENT_ERROR_CODES.network,
      status: 0,
      message: `${spec.endpoint}: ${what}.`,
      endpoint: spec.endpoint,
      uncertain: spec.method !== 'GET' && !notSent,
      notSent: notSent && !isTimeout,
    });
  }

  function httpError(
    spec: ErrorContext,
    status: number,
    body: Uint8Array,
    headers: Record<string, string | string[] | undefined>,
  ): ApiError {
    const parsed = ErrorEnvelope.safeParse(parseJson(body));
    const env = parsed.success ? parsed.data.error : undefined;
    const code = env?.code ?? `HTTP_${status}`;
    if (spec.assumedFeature && isMissingEndpoint(status, env?.code)) {
      return new ApiError({
        kind: 'client',
        code: CLIENT_ERROR_CODES.featureUnavailable,
        status,
        message: `This service does not offer ${spec.assumedFeature} (${spec.endpoint} answered ${status}).`,
        endpoint: spec.endpoint,
      });
    }
    const retryAfterMs =
      // An HTTP date names a moment of the wall clock, whatever clock this client keeps.
      status === 429 ? parseRetryAfter(headers['retry-after'], Date.now()) : undefined;
    const message = redact(env?.message || `The service answered HTTP ${status}.`);
    return new ApiError({
      kind: kindOf(status, code),
      code,
      status,
      message,
      ...(env?.data !== undefined ? { data: redactData(env.data) } : {}),
      endpoint: spec.endpoint,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      uncertain: status >= 500 && spec.method !== 'GET',
    });
  }

  function redactData(data: unknown): unknown {
    const text = JSON.stringify(data);
    return text !== undefined && text.includes(secret) ? JSON.parse(redact(text)) : data;
  }

  function parseSuccess<S extends z.ZodType | null>(
    spec: CallSpec<S>,
    body: Uint8Array,
  ): { ok: true; value: Output<S> } | { ok: false; error: ApiError } {
    if (spec.schema === null) return { ok: true, value: undefined as Output<S> };
    if (body.length === 0 && spec.allowEmpty) return { ok: true, value: undefined as Output<S> };
    const json = parseJson(body);
    if (json === NOT_JSON) {
      return { ok: false, error: invalidResponse(spec.endpoint, 'the body is not JSON') };
    }
    const result = envelopeOf(spec.schema).safeParse(json);
    if (!result.success) {
      return {
        ok: false,
        error: invalidResponse(spec.endpoint, describeIssues(result.error.issues)),
      };
    }
    return { ok: true, value: result.data.data as Output<S> };
  }

  /**
   * One send in its turn of the pacer, through the open gate. The turn is given back however
   * the send ends, after a 429 has closed the gate (a request woken by the release must find
   * it closed). `refusal`: this call's count of 429s should this one be one (the backoff of a
   * `Retry-After` of 0).
   */
  async function sendInTurn<S extends z.ZodType | null>(
    spec: CallSpec<S>,
    signal: AbortSignal | undefined,
    fresh: FreshBody | undefined,
    freshSocket: boolean,
    refusal: number,
  ): Promise<Awaited<ReturnType<typeof sendOnce<S>>> | 'gate-closed'> {
    // The gate first: a turn taken before a pause would be counted at its start, and sent at
    // its end, and the pacer would learn the service's allowance wrong.
    await gate.wait(signal).catch(() => {
      throw abortedError(spec.endpoint);
    });
    const release = await pacer
      .turn(signal, { holds: spec.extraTimeoutMs !== undefined })
      .catch(() => {
        throw abortedError(spec.endpoint);
      });
    try {
      if (gate.pausedUntil !== undefined) {
        pacer.unused(release);
        return 'gate-closed';
      }
      noteSend(spec);
      const result = await sendOnce(spec, signal, fresh, freshSocket);
      if (result.ok) pacer.succeeded();
      else if (result.error.kind === 'rate-limited') {
        const after = result.error.retryAfterMs;
        pacer.refused(after, release.at);
        // `0` or a date already past: a short wait with jitter, never back-to-back resends.
        if (after !== undefined)
          gate.pauseUntil(clock.now() + (after > 0 ? after : backoff(refusal)));
      }
      return result;
    } finally {
      release();
    }
  }

  async function call<S extends z.ZodType | null>(spec: CallSpec<S>): Promise<Output<S>> {
    const signal = signalFor(spec.signal);
    let failures = 0;
    let rateLimited = 0;
    let sawUncertain = false;
    // A one-shot call takes a connection of its own: a pooled one the server closes as the
    // request is written would leave its outcome unknown, and it cannot be sent twice.
    let freshSocket = spec.resend === 'once';
    for (;;) {
      if (signal?.aborted) throw abortedError(spec.endpoint);
      // The body first (a local problem, such as a file gone, is its own ApiError); then
      // nothing awaits between the open gate and the send, so no request slips into a pause.
      const fresh = spec.body ? await spec.body() : undefined;
      const result = await sendInTurn(spec, signal, fresh, freshSocket, rateLimited + 1);
      if (result === 'gate-closed') continue; // closed again while this call woke up
      if (result.ok) return result.value;
      const error = result.error;
      if (error.kind === 'aborted') throw error;
      // A pooled connection that had closed, and nothing of the request left: at once again,
      // on a connection of its own, not counted as a failure (once; then the rules below).
      if (result.stale && !freshSocket) {
        freshSocket = true;
        continue;
      }
      if (error.kind === 'rate-limited') {
        rateLimited++;
        if (rateLimited > retry.rateLimitedLimit) throw error;
        // Without Retry-After: this call backs off on its own; the gate stays open.
        if (error.retryAfterMs === undefined) await sleep(backoff(rateLimited), signal, spec);
        continue;
      }
      if (!error.retryable) {
        const resolved = sawUncertain ? spec.resolveAfterUncertain?.(error) : undefined;
        if (resolved !== undefined) return resolved.value;
        throw error;
      }
      // A network error or 5xx.
      if (error.uncertain && spec.resend === 'once') throw error;
      failures++;
      if (failures > retry.limit) throw error;
      // Nothing left (refused, no route, no such host): two quick tries, then the caller
      // (the queue's offline probe) knows within seconds instead of after a long backoff.
      if (error.notSent && failures > NOT_SENT_RETRIES) throw error;
      if (error.uncertain) sawUncertain = true;
      await sleep(backoff(failures), signal, spec);
    }
  }

  function noteSend(context: ErrorContext): void {
    options.onRequest?.({ method: context.method, endpoint: context.endpoint, at: clock.now() });
  }

  async function sleep<S extends z.ZodType | null>(
    ms: number,
    signal: AbortSignal | undefined,
    spec: CallSpec<S>,
  ): Promise<void> {
    await clock.sleep(ms, signal).catch(() => {
      throw abortedError(spec.endpoint);
    });
  }

  return {
    baseUrl,
    origin,
    gate,
    pacer,
    clock,
    retry,
    call,
    authHeaders,
    signalFor,
    backoff,
    noteSend,
    errorFromResponse: httpError,
    errorFromTransport: transportError,
  };
}

// ---- pure helpers ------------------------------------------------------------------------

export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`base URL is not a valid URL: ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`base URL must be http or https, got ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new TypeError('base URL must not contain credentials');
  }
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

function buildUrl(baseUrl: string, path: string, query: CallSpec<null>['query']): URL {
  const url = /^https?:\/\//.test(path) ? new URL(path) : new URL(baseUrl + path);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
  }
  return url;
}

/** Encodes one path segment (IDs come from users and disk: never trust them in a URL). */
export function seg(value: string): string {
  return encodeURIComponent(value);
}

/** One envelope schema per data schema: zod compiles a schema on first use, so build each once. */
const envelopes = new WeakMap<z.ZodType, z.ZodType>();
function envelopeOf(schema: z.ZodType): z.ZodType<{ data: unknown }> {
  let wrapped = envelopes.get(schema);
  if (wrapped === undefined) {
    wrapped = envelope(schema);
    envelopes.set(schema, wrapped);
  }
  return wrapped as z.ZodType<{ data: unknown }>;
}

const NOT_JSON = Symbol('not json');
function parseJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch {
    return NOT_JSON;
  }
}

export function invalidResponse(endpoint: string, detail: string): ApiError {
  return new ApiError({
    kind: 'invalid-response',
    code: CLIENT_ERROR_CODES.invalidResponse,
    status: 0,
    message: `Unexpected answer from ${endpoint}: ${detail}.`,
    endpoint,
  });
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => {
      const path = ['data', ...issue.path.map(String)]
        .join('.')
        .replace(/\.(\d+)(?=\.|$)/g, '[$1]');
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}

/** 401 and 403 are split by code: only some are conditions of the whole account. */
export function kindOf(status: number, code: string): ApiErrorKind {
  if (status === 401) return code === 'INVALID_UPLOAD_TOKEN' ? 'client' : 'auth';
  if (status === 403) {
    if (code === 'ACCOUNT_BANNED') return 'banned';
    if (code === 'BETA_ACCESS_REQUIRED') return 'beta';
    return 'forbidden';
  }
  if (status === 429) return 'rate-limited';
  if (status >= 500) return 'server';
  return 'client';
}

/**
 * Whether a 404/405 means "no such endpoint" rather than "no such resource": a resource
 * 404 names what is missing (BRAND_NOT_FOUND, IMAGE_NOT_FOUND, …).
 */
export function isMissingEndpoint(status: number, code: string | undefined): boolean {
  if (status === 405 || status === 501) return true;
  if (status !== 404) return false;
  return code === undefined || code === 'ROUTE_NOT_FOUND' || !code.endsWith('_NOT_FOUND');
}

/** Retry-After: integer seconds (the document), or an HTTP date (RFC 9110). */
export function parseRetryAfter(
  header: string | string[] | undefined,
  now: number,
): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

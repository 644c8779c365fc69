// Reading the service's answer: a success's envelope checked against the call's schema, and
// every failure translated into an ApiError: an HTTP error by its status and code (a missing
// assumed endpoint is "feature unavailable"; Retry-After read), a transport error by its
// code alone, so no URL or header rides along. The secret never appears in what is kept.
import type { z } from 'zod';
import { ApiError, CLIENT_ERROR_CODES, type ApiErrorKind } from './errors.ts';
import { abortedError } from './clock.ts';
import type { CallSpec, ErrorContext, Output } from './http-types.ts';
import { ErrorEnvelope, envelope } from './schemas.ts';
import { ExchangeError } from './transport.ts';

/** Transport status codes that prove the request never reached the service. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ERR_INVALID_URL',
]);

export interface AnswerReader {
  /** The ApiError for a failure without an HTTP answer (the error is read, never kept). */
  transportError(error: unknown, spec: ErrorContext, signal: AbortSignal | undefined): ApiError;
  /** The ApiError for a non-2xx answer (body: the raw error body, possibly empty). */
  httpError(
    spec: ErrorContext,
    status: number,
    body: Uint8Array,
    headers: Record<string, string | string[] | undefined>,
  ): ApiError;
  /** The `data` of a 2xx answer, checked against the call's schema. */
  parseSuccess<S extends z.ZodType | null>(
    spec: CallSpec<S>,
    body: Uint8Array,
  ): { ok: true; value: Output<S> } | { ok: false; error: ApiError };
}

/** The answer reader of a client whose credential is `secret` (redacted from messages). */
export function answerReader(secret: string): AnswerReader {
  const redact = (text: string): string =>
    text.includes(secret) ? text.split(secret).join('[redacted]') : text;

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

  return { transportError, httpError, parseSuccess };
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

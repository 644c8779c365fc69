// The single path every call to the service takes: auth header, the per-key rate gate,
// timeouts, cancellation, the retry rules of the interface document, response validation,
// and the translation of every failure into an ApiError. This module sends (the gate, the
// pacer's turn, the retries); http-request.ts builds each request, http-answer.ts reads the
// answer and translates failures, and the exchange itself is transport.ts
// (download-request.ts for downloads). Transport errors never leave this path: they are
// read for their code and dropped, so no URL or header rides along.
import { backoffDelay } from '../queue/backoff.ts';
import type { z } from 'zod';
import type { ApiError } from './errors.ts';
import { abortedError, realClock, type Clock } from './clock.ts';
import { answerReader } from './http-answer.ts';
import { normalizeBaseUrl, requestOf } from './http-request.ts';
import type {
  CallSpec,
  Credentials,
  ErrorContext,
  FreshBody,
  HttpMethod,
  Output,
  RetryPolicy,
} from './http-types.ts';
import { rateGateFor, type RateGate } from './rate-gate.ts';
import { Pacer, pacerOf } from './pacer.ts';
import { exchange, ExchangeError, type Answer } from './transport.ts';

export type * from './http-types.ts';
export { normalizeBaseUrl, seg, USER_AGENT } from './http-request.ts';
export { invalidResponse, isMissingEndpoint, kindOf, parseRetryAfter } from './http-answer.ts';

export const DEFAULT_RETRY: RetryPolicy = {
  limit: 4,
  rateLimitedLimit: 8,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
};
export const DEFAULT_TIMEOUT_MS = 30_000;

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

/** Tries after a failure that sent nothing (the host refused or was not found) before giving up. */
const NOT_SENT_RETRIES = 2;

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

  const { transportError, httpError, parseSuccess } = answerReader(secret);

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
    const { url, headers, body } = requestOf(baseUrl, spec, fresh, authHeaders);
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

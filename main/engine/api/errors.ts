// Every failure of a call to the service becomes one ApiError: a typed value the queue,
// the CLI and the UI branch on. The API key is never part of it (no headers, no URL
// with credentials, no request options are kept).

/** Coarse class of a failure; what the engine does next depends on it. */
export type ApiErrorKind =
  | 'auth' // 401 UNAUTHORIZED: sign in again; the whole queue pauses
  | 'banned' // 403 ACCOUNT_BANNED: everything pauses
  | 'forbidden' // 403 FORBIDDEN: plan upgrade required
  | 'beta' // 403 BETA_ACCESS_REQUIRED
  | 'rate-limited' // 429: wait for the gate
  | 'network' // no HTTP answer (reset, refused, timeout, DNS)
  | 'server' // 5xx
  | 'client' // any other 4xx: the request itself is wrong; retrying does not help
  | 'invalid-response' // a 2xx whose body breaks the schema
  | 'aborted'; // the caller's AbortSignal fired

export interface ApiErrorInit {
  kind: ApiErrorKind;
  /** The service's error code (UNAUTHORIZED, BRAND_NOT_FOUND, …), or ours: NETWORK_ERROR, INVALID_RESPONSE, ABORTED. */
  code: string;
  /** HTTP status; 0 when no answer arrived. */
  status: number;
  message: string;
  data?: unknown;
  /** Which call failed, as "METHOD /path/template" (no IDs of secrets, no query). */
  endpoint: string;
  /** Milliseconds the service asked us to wait (Retry-After), when it said. */
  retryAfterMs?: number;
  /** The request may have been processed although no success reached us (network error or 5xx after a POST/PUT/DELETE). */
  uncertain?: boolean;
  notSent?: boolean;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly code: string;
  readonly status: number;
  readonly data: unknown;
  readonly endpoint: string;
  readonly retryAfterMs: number | undefined;
  readonly uncertain: boolean;
  /** No byte of the request left (refused, no route, unknown host): certainly not processed. */
  readonly notSent: boolean;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.code = init.code;
    this.status = init.status;
    this.data = init.data;
    this.endpoint = init.endpoint;
    this.retryAfterMs = init.retryAfterMs;
    this.uncertain = init.uncertain ?? false;
    this.notSent = init.notSent ?? false;
  }

  /** Whether repeating the same request later can succeed. */
  get retryable(): boolean {
    return isRetryableKind(this.kind);
  }

  /** A condition of the whole account: every request with this key would fail the same way. */
  get accountLevel(): boolean {
    return this.kind === 'auth' || this.kind === 'banned';
  }

  /** An assumed endpoint is missing on this service: hide the feature, do not retry. */
  get featureUnavailable(): boolean {
    return this.code === CLIENT_ERROR_CODES.featureUnavailable;
  }

  /** A plain value that can cross a process or IPC boundary. */
  toJSON(): {
    code: string;
    status: number;
    message: string;
    kind: ApiErrorKind;
    endpoint: string;
    uncertain?: boolean;
    retryAfterMs?: number;
    data?: unknown;
  } {
    return {
      code: this.code,
      status: this.status,
      message: this.message,
      kind: this.kind,
      endpoint: this.endpoint,
      ...(this.uncertain ? { uncertain: true } : {}),
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
      ...(this.data === undefined ? {} : { data: this.data }),
    };
  }
}

/** Codes the client itself gives to failures that carry no service code. */
export const CLIENT_ERROR_CODES = {
  /** No HTTP answer: reset, refused, DNS. */
  network: 'NETWORK_ERROR',
  /** No HTTP answer within the request's time limit. */
  timeout: 'TIMEOUT',
  /** A 2xx whose body is not what the interface document describes. */
  invalidResponse: 'INVALID_RESPONSE',
  /** The caller's AbortSignal fired. */
  aborted: 'ABORTED',
  /** An assumed endpoint answered 404/405: the service does not offer that feature. */
  featureUnavailable: 'FEATURE_UNAVAILABLE',
  /** Our own validation rejected an argument before anything was sent. */
  invalidInput: 'INVALID_INPUT',
} as const;

export function isRetryableKind(kind: ApiErrorKind): boolean {
  return kind === 'rate-limited' || kind === 'network' || kind === 'server';
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

// The shapes of a call to the service, shared by the parts of the HTTP path (http.ts sends,
// http-request.ts builds, http-answer.ts reads the answer) and by the endpoint modules.
import type { z } from 'zod';
import type { ApiError } from './errors.ts';

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

/** What error translation needs to know about a call. */
export type ErrorContext = Pick<CallSpec<null>, 'endpoint' | 'method' | 'assumedFeature'>;

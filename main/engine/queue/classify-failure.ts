// What a job's failure means for the job and for the whole queue. Service failures come
// classified as ApiErrors; our own are PermanentError / TransientError; anything else
// (a store hiccup, a bug) is treated as transient so that nothing is dropped on a whim,
// and the attempt limit ends it if it keeps failing.
import { z } from 'zod';
import { isApiError } from '../api/errors.ts';
import type { JobError } from '../store/index.ts';
import { isStoreError } from '../store/index.ts';
import { LeaseLostError, PermanentError, TransientError } from './job-errors.ts';

export type FailureClass =
  /** Fail the job now. */
  | { type: 'permanent'; error: JobError }
  /** Retry the job after a backoff; the attempt counts. */
  | { type: 'transient'; error: JobError; retryAfterMs?: number }
  /** The service throttles this key: every job waits for the gate; not the job's fault. */
  | { type: 'rate-limited'; error: JobError; retryAfterMs?: number }
  /** No answer from the service: the queue pauses as offline. */
  | { type: 'offline'; error: JobError }
  /** The account cannot work (401, banned): the queue pauses until that clears. */
  | { type: 'account'; error: JobError }
  /** The request was cancelled (by us, or a timeout inside the handler). */
  | { type: 'aborted'; error: JobError }
  /** Another worker owns the job now. */
  | { type: 'lease-lost' };

export function classifyFailure(error: unknown): FailureClass {
  if (error instanceof LeaseLostError) return { type: 'lease-lost' };
  if (isApiError(error)) {
    const value: JobError = {
      code: error.code,
      message: error.message,
      kind: error.kind,
      retryable: error.retryable,
      status: error.status,
      ...(error.data === undefined ? {} : { data: error.data }),
    };
    if (error.accountLevel) return { type: 'account', error: value };
    switch (error.kind) {
      case 'network':
        return { type: 'offline', error: value };
      case 'rate-limited':
        return withRetryAfter({ type: 'rate-limited', error: value }, error.retryAfterMs);
      case 'aborted':
        return { type: 'aborted', error: value };
      default:
        return error.retryable
          ? withRetryAfter({ type: 'transient', error: value }, error.retryAfterMs)
          : { type: 'permanent', error: value };
    }
  }
  if (error instanceof PermanentError) {
    return {
      type: 'permanent',
      error: plain(error.code, error.message, 'permanent', false, error.data),
    };
  }
  if (error instanceof TransientError) {
    return withRetryAfter(
      { type: 'transient', error: plain(error.code, error.message, 'transient', true, error.data) },
      error.retryAfterMs,
    );
  }
  if (error instanceof z.ZodError) {
    const issue = error.issues[0];
    const where =
      issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    return {
      type: 'permanent',
      error: plain(
        'INVALID_PAYLOAD',
        `Invalid job data${where}: ${issue?.message ?? 'invalid'}`,
        'permanent',
        false,
      ),
    };
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return { type: 'aborted', error: plain('ABORTED', error.message, 'aborted', true) };
  }
  if (isStoreError(error)) {
    return { type: 'transient', error: plain(`STORE_${error.code}`, error.message, 'store', true) };
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  return {
    type: 'transient',
    error: plain(typeof code === 'string' ? code : 'INTERNAL_ERROR', message, 'internal', true),
  };
}

function plain(
  code: string,
  message: string,
  kind: string,
  retryable: boolean,
  data?: unknown,
): JobError {
  return { code, message, kind, retryable, ...(data === undefined ? {} : { data }) };
}

function withRetryAfter<T extends { type: 'transient' | 'rate-limited' }>(
  value: T,
  retryAfterMs: number | undefined,
): T & { retryAfterMs?: number } {
  return retryAfterMs === undefined ? value : { ...value, retryAfterMs };
}

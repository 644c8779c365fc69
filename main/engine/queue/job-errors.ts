// Errors a job handler throws for failures that are not service calls (those are
// ApiErrors), and the queue's own errors.

/** Repeating cannot help (bad input, a file that is not an image): the job fails at once. */
export class PermanentError extends Error {
  readonly code: string;
  readonly data: unknown;

  constructor(code: string, message: string, options: { data?: unknown; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PermanentError';
    this.code = code;
    this.data = options.data;
  }
}

/** May succeed later (file still being written, disk busy): retried with backoff. */
export class TransientError extends Error {
  readonly code: string;
  readonly retryAfterMs: number | undefined;
  readonly data: unknown;

  constructor(
    code: string,
    message: string,
    options: { retryAfterMs?: number; data?: unknown; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TransientError';
    this.code = code;
    this.retryAfterMs = options.retryAfterMs;
    this.data = options.data;
  }
}

/** The job's lease went to another worker: this run must stop without writing anything. */
export class LeaseLostError extends Error {
  readonly code = 'LEASE_LOST';

  constructor(jobId: number) {
    super(`Job ${jobId} is no longer leased to this worker; it stops without side effects.`);
    this.name = 'LeaseLostError';
  }
}

export type QueueErrorCode =
  | 'UNKNOWN_JOB_KIND' // enqueue of a kind nobody registered
  | 'ALREADY_REGISTERED'
  | 'INVALID_PAYLOAD' // the payload does not fit the kind's schema
  | 'INVALID_OPTION'
  | 'STOPPED' // used after stop()
  | 'STORE_FAILED'; // a write of the queue's own bookkeeping failed (reported, then retried)

export class QueueError extends Error {
  readonly code: QueueErrorCode;

  constructor(code: QueueErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'QueueError';
    this.code = code;
  }
}

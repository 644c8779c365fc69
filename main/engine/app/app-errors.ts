// Refusals of the app layer, as typed values with codes; the bridge turns every error into
// a plain {code, message, retryable}.
import { CodedError } from '../core/coded-error.ts';
export type AppErrorCode =
  | 'NOT_SIGNED_IN'
  | 'NO_SERVICE'
  | 'NOT_FOUND'
  | 'INVALID_INPUT'
  | 'NOT_SUPPORTED'
  | 'AUTH_REFUSED'
  | 'SERVICE_UNREACHABLE'
  | 'SERVICE_FIXED'
  | 'BRAND_STILL_ON_SERVICE';

export class AppError extends CodedError<AppErrorCode> {
  readonly retryable: boolean;
  readonly data: unknown;
  constructor(
    code: AppErrorCode,
    message: string,
    options: { retryable?: boolean; data?: unknown } = {},
  ) {
    super(code, message);
    this.retryable = options.retryable ?? false;
    this.data = options.data;
  }
}

/** A job run for a face failed: its own code (a service code such as DUPLICATE_BRAND) crosses as it is. */
export class JobFailure extends CodedError<string> {
  readonly retryable: boolean;
  readonly data: unknown;
  constructor(
    code: string,
    message: string,
    options: { retryable?: boolean; data?: unknown } = {},
  ) {
    super(code, message);
    this.retryable = options.retryable ?? false;
    this.data = options.data;
  }
}

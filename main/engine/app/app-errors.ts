// Refusals of the app layer, as typed values with codes; the bridge turns every error into
// a plain {code, message, retryable}.
export type AppErrorCode =
  'NOT_SIGNED_IN' | 'NO_SERVICE' | 'NOT_FOUND' | 'INVALID_INPUT' | 'NOT_SUPPORTED' | 'AUTH_REFUSED';

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly retryable: boolean;
  readonly data: unknown;
  constructor(
    code: AppErrorCode,
    message: string,
    options: { retryable?: boolean; data?: unknown } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.data = options.data;
  }
}

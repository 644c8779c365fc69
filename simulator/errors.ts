// The service's error envelope, {error: {code, status, message, data?}}, and the typed error
// every handler throws to produce it.

export class SimError extends Error {
  readonly status: number;
  readonly code: string;
  readonly data: unknown;
  /** Extra response headers (Retry-After on a 429). */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    data?: unknown,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'SimError';
    this.status = status;
    this.code = code;
    this.data = data;
    this.headers = headers;
  }

  toBody(): ErrorBody {
    return envelope(this.status, this.code, this.message, this.data);
  }
}

export interface ErrorBody {
  error: { code: string; status: number; message: string; data?: unknown };
}

export function envelope(status: number, code: string, message: string, data?: unknown): ErrorBody {
  return { error: { code, status, message, ...(data === undefined ? {} : { data }) } };
}

/** A request body or query that breaks the schema (the service answers these as BAD_REQUEST). */
export function badRequest(message: string, field?: string): SimError {
  return new SimError(
    400,
    'BAD_REQUEST',
    message,
    field === undefined ? undefined : { issues: [{ path: field, message }] },
  );
}

export const brandNotFound = (status: 404 | 422 = 404): SimError =>
  new SimError(
    status,
    'BRAND_NOT_FOUND',
    status === 422 ? 'brand session not found' : 'brand not found',
  );

// What crosses the bridge back to a face: a value or a plain error, never a thrown exception
// (IPC and HTTP both carry plain data; a class instance would lose its type on the way).
import { z } from 'zod';

export const bridgeError = z.object({
  /** A stable code: VALIDATION_ERROR, NOT_SIGNED_IN, a service code (BRAND_EDIT_STALE, …). */
  code: z.string(),
  /** One sentence a person can act on. Never holds the API key. */
  message: z.string(),
  /** True when the same call may succeed later without a change (network, rate limit). */
  retryable: z.boolean(),
  /** Extra facts for the face (the service's action URL, the credits needed, …). */
  data: z.unknown().optional(),
});
export type BridgeError = z.infer<typeof bridgeError>;

export type Result<T> = { ok: true; data: T } | { ok: false; error: BridgeError };

export function ok<T>(data: T): Result<T> {
  return { ok: true, data };
}

export function fail(
  code: string,
  message: string,
  retryable = false,
  data?: unknown,
): Result<never> {
  return {
    ok: false,
    error: data === undefined ? { code, message, retryable } : { code, message, retryable, data },
  };
}

/** zod's own words, on one line: `brandId: Invalid UUID; limit: Too big: expected <=200`. */
export function validationMessage(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
    .join('; ');
}

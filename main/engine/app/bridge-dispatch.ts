// The boundary every face crosses: a channel name and a raw input in, a plain result out.
// The input is parsed by the contract's schema first (a malformed one never reaches the
// engine: VALIDATION_ERROR with zod's words), and every failure becomes {code, message,
// retryable}, with the key, should any text ever hold it, blanked out.
import {
  channels,
  isChannelName,
  validationMessage,
  type BridgeError,
  type ChannelName,
  type Result,
} from '../../../contract/index.ts';
import { describeApiError, isApiError } from '../api/index.ts';
import type { Handlers } from './bridge-handlers.ts';

export async function dispatch(
  handlers: Handlers,
  name: string,
  raw: unknown,
  secret?: () => string | undefined,
): Promise<Result<unknown>> {
  if (!isChannelName(name)) {
    return failure(
      {
        code: 'UNKNOWN_CHANNEL',
        message: `There is no query or command "${name}"; see the README's HTTP API for the list.`,
        retryable: false,
      },
      secret,
    );
  }
  const parsed = channels[name].input.safeParse(raw ?? {});
  if (!parsed.success) {
    return failure(
      {
        code: 'VALIDATION_ERROR',
        message: `${name}: ${validationMessage(parsed.error)}`,
        retryable: false,
      },
      secret,
    );
  }
  try {
    const handler = handlers[name] as (input: unknown) => unknown;
    return { ok: true, data: await handler(parsed.data) };
  } catch (error) {
    return failure(toBridgeError(error), secret);
  }
}

/** Any error as the contract's plain value. */
export function toBridgeError(error: unknown): BridgeError {
  if (isApiError(error)) {
    return {
      code: error.code,
      message: describeApiError(error),
      retryable: error.retryable,
      ...(error.data === undefined ? {} : { data: error.data }),
    };
  }
  if (error instanceof Error) {
    const typed = error as Error & { code?: unknown; retryable?: unknown; data?: unknown };
    if (typeof typed.code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(typed.code)) {
      return {
        code: typed.code,
        message: error.message,
        retryable: typed.retryable === true,
        ...(typed.data === undefined ? {} : { data: typed.data }),
      };
    }
    return {
      code: 'INTERNAL_ERROR',
      message: `Brand Sync failed inside: ${error.message}`,
      retryable: false,
    };
  }
  return {
    code: 'INTERNAL_ERROR',
    message: `Brand Sync failed inside: ${String(error)}`,
    retryable: false,
  };
}

function failure(error: BridgeError, secret?: () => string | undefined): Result<never> {
  const key = secret?.();
  if (key !== undefined && key.length > 0) {
    const blank = (text: string) => text.split(key).join('[key]');
    error = { ...error, message: blank(error.message) };
    if (error.data !== undefined) {
      error = { ...error, data: JSON.parse(blank(JSON.stringify(error.data))) as unknown };
    }
  }
  return { ok: false, error };
}

export type { ChannelName };

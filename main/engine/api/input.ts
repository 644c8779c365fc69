// Checks of caller input before anything is sent: a bad argument gets a specific
// INVALID_INPUT error naming the call and the argument, never a service round trip.
import { ApiError, CLIENT_ERROR_CODES } from './errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

export function invalidInput(endpoint: string, message: string): ApiError {
  return new ApiError({
    kind: 'client',
    code: CLIENT_ERROR_CODES.invalidInput,
    status: 0,
    message,
    endpoint,
  });
}

/** The interface document: path IDs and every ID in bodies are UUIDs. */
export function requireUuid(value: unknown, what: string, endpoint: string): string {
  if (!isUuid(value)) {
    throw invalidInput(endpoint, `${what} must be a UUID, got ${JSON.stringify(value)}.`);
  }
  return value;
}

export function requireLength(
  value: unknown,
  what: string,
  min: number,
  max: number,
  endpoint: string,
): string {
  if (typeof value !== 'string' || value.length < min || value.length > max) {
    const got = typeof value === 'string' ? `${value.length} characters` : JSON.stringify(value);
    throw invalidInput(endpoint, `${what} must be ${min}-${max} characters long, got ${got}.`);
  }
  return value;
}

export function requireIntInRange(
  value: unknown,
  what: string,
  min: number,
  max: number,
  endpoint: string,
): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidInput(
      endpoint,
      `${what} must be an integer from ${min} to ${max}, got ${String(value)}.`,
    );
  }
  return value;
}

export function requireHttpUrl(value: unknown, what: string, endpoint: string): string {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw invalidInput(endpoint, `${what} must be an http(s) URL, got ${JSON.stringify(value)}.`);
  }
  return value as string;
}

// Small request-validation helpers: each failure is a SimError naming the field.
import { badRequest } from './errors.ts';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_RE.test(value);
}

export function requireObject(body: unknown, what = 'body'): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest(`${what} must be a JSON object`, what);
  }
  return body as Record<string, unknown>;
}

export function optionalString(
  obj: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
): string | undefined {
  const value = obj[field];
  if (value === undefined) return undefined;
  return checkString(value, field, min, max);
}

export function requireString(
  obj: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
): string {
  const value = obj[field];
  if (value === undefined || value === null) throw badRequest(`${field} is required`, field);
  return checkString(value, field, min, max);
}

function checkString(value: unknown, field: string, min: number, max: number): string {
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`, field);
  // Length in characters as JavaScript counts them (UTF-16 units), like a JSON-schema validator in JS.
  if (value.length < min)
    throw badRequest(`${field} must be at least ${min} characters long`, field);
  if (value.length > max)
    throw badRequest(`${field} must be at most ${max} characters long`, field);
  return value;
}

export function optionalUuid(obj: Record<string, unknown>, field: string): string | undefined {
  const value = obj[field];
  if (value === undefined) return undefined;
  if (!isUuid(value)) throw badRequest(`${field} must be a UUID`, field);
  return value;
}

export function optionalBoolean(obj: Record<string, unknown>, field: string): boolean | undefined {
  const value = obj[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw badRequest(`${field} must be a boolean`, field);
  return value;
}

/** An integer query parameter within [min, max]; absent gives the default. */
export function queryInt(
  query: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  dflt: number,
): number {
  const raw = query[name];
  if (raw === undefined) return dflt;
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw)) {
    throw badRequest(`${name} must be an integer from ${min} to ${max}`, name);
  }
  const n = Number(raw);
  if (n < min || n > max)
    throw badRequest(`${name} must be an integer from ${min} to ${max}`, name);
  return n;
}

export function queryBool(query: Record<string, unknown>, name: string): boolean {
  const raw = query[name];
  if (raw === undefined) return false;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw badRequest(`${name} must be true or false`, name);
}

export function queryString(query: Record<string, unknown>, name: string): string | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw badRequest(`${name} must be given once`, name);
  return raw;
}

/** The `wait`/`timeout` pair of the polling endpoints (docs/service.md, Image wait parameter name: 1-295 s, default 120). */
export function waitParams(query: Record<string, unknown>): { wait: boolean; timeoutS: number } {
  return { wait: queryBool(query, 'wait'), timeoutS: queryInt(query, 'timeout', 1, 295, 120) };
}

// Argument checks shared by the repositories: a bad value is refused with a message that
// names the field, before it can reach SQL.
import { StoreError } from './store-error.ts';

export function requireId(id: unknown, what: string): asserts id is string {
  if (typeof id !== 'string' || id.trim() === '') {
    throw new StoreError(
      'INVALID_ARGUMENT',
      `A ${what} needs a non-empty string id (got ${JSON.stringify(id)}).`,
    );
  }
}

export function requireCount(value: unknown, what: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new StoreError(
      'INVALID_ARGUMENT',
      `${what} must be a whole number >= 0 (got ${JSON.stringify(value)}).`,
    );
  }
}

export function requireOneOf<T extends string>(
  value: unknown,
  allowed: readonly T[],
  what: string,
): asserts value is T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new StoreError(
      'INVALID_ARGUMENT',
      `${what} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)}).`,
    );
  }
}

/** Page size for listings: 1..max, default when absent. */
export function pageLimit(limit: number | undefined, fallback: number, max: number): number {
  if (limit === undefined) return fallback;
  if (!Number.isInteger(limit) || limit < 1 || limit > max) {
    throw new StoreError(
      'INVALID_ARGUMENT',
      `A page size must be a whole number from 1 to ${max} (got ${limit}).`,
    );
  }
  return limit;
}

// Idempotency-Key: the same key with the same request returns the first result (even while the
// first is still running); the same key with another request answers 409 IDEMPOTENCY_CONFLICT.
// Keys are scoped by API key and route, so a beta key does not transfer to /brands.
import { createHash } from 'node:crypto';
import { SimError } from './errors.ts';

export interface StoredResult {
  status: number;
  body: unknown;
}

interface Entry {
  fingerprint: string;
  result: Promise<StoredResult>;
}

export class IdempotencyStore {
  #entries = new Map<string, Entry>();

  /**
   * Runs fn once per (scope, key); a repeat with the same fingerprint gets the first result.
   * Results of 5xx (or thrown non-SimErrors) are not kept: the request may be retried.
   */
  async run(
    scope: string,
    key: string,
    fingerprint: string,
    fn: () => Promise<StoredResult>,
  ): Promise<{ result: StoredResult; replayed: boolean }> {
    const id = `${scope}\n${key}`;
    const existing = this.#entries.get(id);
    if (existing) {
      if (existing.fingerprint !== fingerprint) {
        throw new SimError(
          409,
          'IDEMPOTENCY_CONFLICT',
          'Idempotency-Key was already used with a different request',
        );
      }
      return { result: await existing.result, replayed: true };
    }
    const result = fn().then(
      (r) => {
        if (r.status >= 500) this.#entries.delete(id);
        return r;
      },
      (err: unknown) => {
        if (err instanceof SimError && err.status < 500)
          return { status: err.status, body: err.toBody() };
        this.#entries.delete(id);
        throw err;
      },
    );
    this.#entries.set(id, { fingerprint, result });
    return { result: await result, replayed: false };
  }

  size(): number {
    return this.#entries.size;
  }
}

/** The fingerprint of a request: its path and its body, with object keys in a stable order. */
export function fingerprint(path: string, body: unknown): string {
  return createHash('sha256').update(path).update('\n').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .sort()
    .filter((k) => obj[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
    .join(',')}}`;
}

export function checkIdempotencyKey(key: string): void {
  if (key.length < 1 || key.length > 255) {
    throw new SimError(400, 'BAD_REQUEST', 'Idempotency-Key must be 1-255 characters long', {
      issues: [{ path: 'Idempotency-Key', message: 'length 1-255' }],
    });
  }
}

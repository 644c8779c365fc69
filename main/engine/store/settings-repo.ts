// Settings as key → JSON value. Readers pass a zod schema and a default, so a value
// written by another version that no longer fits falls back instead of crashing.
import type { z } from 'zod';
import type { Db } from './db.ts';
import { StoreError } from './store-error.ts';
import type { Setting } from './setting.ts';

// The API key lives in the OS keychain only; refuse anything that looks like a credential.
const credentialKey = /api[-_.]?key|secret|password|passphrase|token|credential|bearer/i;

export class SettingsRepo {
  private readonly db: Db;
  private readonly now: () => number;

  constructor(db: Db, now: () => number) {
    this.db = db;
    this.now = now;
  }

  get<T>(key: string, schema: z.ZodType<T>, fallback: T): T {
    const row = this.db.get<{ value_json: string }>(
      'SELECT value_json FROM settings WHERE key = ?',
      key,
    );
    if (row === undefined) return fallback;
    const parsed = schema.safeParse(JSON.parse(row.value_json));
    return parsed.success ? parsed.data : fallback;
  }

  read<T>(setting: Setting<T>): T {
    return this.get(setting.key, setting.schema, setting.fallback);
  }

  write<T>(setting: Setting<T>, value: T): void {
    const parsed = setting.schema.safeParse(value);
    if (!parsed.success) {
      throw new StoreError(
        'INVALID_ARGUMENT',
        `Setting "${setting.key}" rejects ${JSON.stringify(value)}: ${parsed.error.issues[0]?.message ?? 'invalid'}.`,
      );
    }
    this.set(setting.key, parsed.data);
  }

  /** The stored JSON value without validation, or undefined when unset. */
  getRaw(key: string): unknown {
    const row = this.db.get<{ value_json: string }>(
      'SELECT value_json FROM settings WHERE key = ?',
      key,
    );
    return row === undefined ? undefined : (JSON.parse(row.value_json) as unknown);
  }

  set(key: string, value: unknown): void {
    if (key.trim() === '')
      throw new StoreError('INVALID_ARGUMENT', 'A setting needs a non-empty key.');
    if (credentialKey.test(key)) {
      throw new StoreError(
        'SECRET_REFUSED',
        `Setting "${key}" looks like a credential; credentials belong in the OS keychain, not the database.`,
      );
    }
    const json = JSON.stringify(value);
    if (json === undefined) {
      throw new StoreError(
        'INVALID_ARGUMENT',
        `Setting "${key}" has no JSON form (got ${typeof value}).`,
      );
    }
    this.db.run(
      `INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`,
      key,
      json,
      this.now(),
    );
  }

  delete(key: string): void {
    this.db.run('DELETE FROM settings WHERE key = ?', key);
  }

  all(): Record<string, unknown> {
    const rows = this.db.all<{ key: string; value_json: string }>(
      'SELECT key, value_json FROM settings ORDER BY key',
    );
    return Object.fromEntries(rows.map((row) => [row.key, JSON.parse(row.value_json) as unknown]));
  }
}

// Forward-only schema migrations. The schema version lives in the database header
// (PRAGMA user_version) and moves in the same transaction as the migration's DDL, so a
// crash leaves either the old or the new schema, never half of one.
import type Database from 'better-sqlite3';
import { StoreError } from './store-error.ts';
import { schemaV1 } from './schema-v1.ts';
import { schemaV2 } from './schema-v2.ts';
import { schemaV3 } from './schema-v3.ts';
import { schemaV4 } from './schema-v4.ts';

export interface Migration {
  version: number;
  name: string;
  /** SQL to exec, or a function for steps that need to read data. */
  up: string | ((db: Database.Database) => void);
}

export const migrations: readonly Migration[] = [
  { version: 1, name: 'initial', up: schemaV1 },
  { version: 2, name: 'jobs claim index', up: schemaV2 },
  { version: 3, name: 'library search: names, descriptions, sources', up: schemaV3 },
  { version: 4, name: 'jobs: drop the index no claim reads', up: schemaV4 },
];

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies every migration above the database's version, each in its own transaction. */
export function migrate(
  db: Database.Database,
  list: readonly Migration[] = migrations,
  now: () => number = Date.now,
): { from: number; to: number } {
  checkOrder(list);
  const latest = list.at(-1)?.version ?? 0;
  const from = schemaVersion(db);
  if (from > latest) {
    throw new StoreError(
      'SCHEMA_TOO_NEW',
      `The database has schema version ${from}, newer than this Brand Sync knows (${latest}). ` +
        'Update Brand Sync; the database was left untouched.',
    );
  }
  for (const migration of list) {
    // IMMEDIATE: another process opening the same file waits instead of migrating twice.
    db.transaction(() => {
      if (schemaVersion(db) >= migration.version) return;
      try {
        if (typeof migration.up === 'string') db.exec(migration.up);
        else migration.up(db);
        if (tableExists(db, 'schema_migrations')) {
          db.prepare(
            'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
          ).run(migration.version, migration.name, now());
        }
        db.pragma(`user_version = ${migration.version}`);
      } catch (error) {
        throw new StoreError(
          'MIGRATION_FAILED',
          `Migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`,
          { cause: error },
        );
      }
    }).immediate();
  }
  return { from, to: schemaVersion(db) };
}

function tableExists(db: Database.Database, name: string): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !==
    undefined
  );
}

function checkOrder(list: readonly Migration[]): void {
  list.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new StoreError(
        'MIGRATION_FAILED',
        `Migrations must be numbered 1, 2, 3, … without gaps; found ${migration.version} at position ${index + 1}.`,
      );
    }
  });
}

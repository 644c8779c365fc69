import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  openStore,
  migrations,
  StoreError,
  databaseFileName,
} from '../../main/engine/store/index.ts';
import type { Migration } from '../../main/engine/store/index.ts';
import { makeTempDir } from './temp-dir.ts';

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir();
});
afterEach(() => temp.cleanup());

function tables(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
        name: string;
      }[]
    ).map((r) => r.name);
  } finally {
    db.close();
  }
}

describe('opening the store', () => {
  it('creates the database in the data dir with WAL, foreign keys and a busy timeout', () => {
    const store = openStore({ dataDir: join(temp.dir, 'nested', 'data') });
    try {
      expect(store.path).toBe(join(temp.dir, 'nested', 'data', databaseFileName));
      expect(store.db.raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(store.db.raw.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(store.db.raw.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(store.db.raw.pragma('synchronous', { simple: true })).toBe(2); // FULL
      expect(store.schemaVersion).toBe(migrations.length);
      expect(store.integrityCheck()).toEqual(['ok']);
    } finally {
      store.close();
    }
    expect(tables(join(temp.dir, 'nested', 'data', databaseFileName))).toEqual(
      expect.arrayContaining([
        'brands',
        'files',
        'uploads',
        'jobs',
        'library_items',
        'settings',
        'activity',
        'sync_state',
      ]),
    );
  });

  it('is a no-op the second time and keeps the data', () => {
    const first = openStore({ dataDir: temp.dir });
    first.settings.set('ui.theme', 'dark');
    first.close();
    const second = openStore({ dataDir: temp.dir });
    try {
      expect(second.schemaVersion).toBe(migrations.length);
      expect(second.settings.getRaw('ui.theme')).toBe('dark');
      expect(second.db.all('SELECT version FROM schema_migrations')).toEqual(
        migrations.map((m) => ({ version: m.version })),
      );
    } finally {
      second.close();
    }
  });

  it('refuses a database written by a newer version and leaves it untouched', () => {
    const file = join(temp.dir, 'new.db');
    const db = new Database(file);
    db.pragma('user_version = 99');
    db.exec('CREATE TABLE future (x)');
    db.close();
    expect(() => openStore({ file })).toThrowError(
      expect.objectContaining({ code: 'SCHEMA_TOO_NEW', message: expect.stringContaining('99') }),
    );
    expect(tables(file)).toEqual(['future']);
  });

  it('rolls a failing migration back completely, schema version included', () => {
    const file = join(temp.dir, 'm.db');
    openStore({ file }).close();
    const broken: Migration[] = [
      ...migrations,
      {
        version: migrations.length + 1,
        name: 'broken',
        up: (db) => {
          db.exec('CREATE TABLE half_done (x)');
          throw new Error('disk on fire');
        },
      },
    ];
    expect(() => openStore({ file }, { migrations: broken })).toThrowError(
      expect.objectContaining({
        code: 'MIGRATION_FAILED',
        message: expect.stringContaining('disk on fire'),
      }),
    );
    expect(tables(file)).not.toContain('half_done');
    const store = openStore({ file });
    expect(store.schemaVersion).toBe(migrations.length);
    store.close();
  });

  it('applies later migrations forward, each once', () => {
    const file = join(temp.dir, 'f.db');
    openStore({ file }).close();
    const version = migrations.length + 1;
    const next: Migration[] = [
      ...migrations,
      { version, name: 'add', up: 'CREATE TABLE extra (x)' },
    ];
    const store = openStore({ file }, { migrations: next });
    expect(store.schemaVersion).toBe(version);
    store.close();
    const again = openStore({ file }, { migrations: next });
    expect(again.db.all('SELECT version, name FROM schema_migrations ORDER BY version')).toEqual([
      ...migrations.map((m) => ({ version: m.version, name: m.name })),
      { version, name: 'add' },
    ]);
    again.close();
  });

  it('version 4 drops jobs_runnable, and jobs queued before it are claimed in the same order', () => {
    const file = join(temp.dir, 'v3.db');
    const v3 = openStore({ file }, { migrations: migrations.slice(0, 3) });
    const ids = [0, 5, 5, 1].map(
      (priority, i) =>
        v3.jobs.enqueue({ kind: 'upload', payload: { i }, priority }, 1_000 + i).job.id,
    );
    v3.close();
    const store = openStore({ file });
    try {
      expect(store.schemaVersion).toBe(4);
      const indexes = store.db
        .all<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'jobs'",
        )
        .map((r) => r.name);
      expect(indexes).not.toContain('jobs_runnable');
      expect(indexes).toEqual(
        expect.arrayContaining(['jobs_claim', 'jobs_active_key', 'jobs_state']),
      );
      const claimed = [0, 1, 2, 3].map(
        () => store.jobs.claimNext(['upload'], 'owner', 10_000, 70_000)?.id,
      );
      // Highest priority first, then the earliest due.
      expect(claimed).toEqual([ids[1], ids[2], ids[3], ids[0]]);
      expect(store.integrityCheck()).toEqual(['ok']);
    } finally {
      store.close();
    }
  });

  it('rejects a migration list with gaps', () => {
    const gap: Migration[] = [
      ...migrations,
      { version: migrations.length + 2, name: 'gap', up: 'SELECT 1' },
    ];
    expect(() => openStore({ file: join(temp.dir, 'g.db') }, { migrations: gap })).toThrowError(
      expect.objectContaining({
        code: 'MIGRATION_FAILED',
        message: expect.stringContaining('without gaps'),
      }),
    );
  });

  it('says which file is not a database', async () => {
    const { writeFileSync } = await import('node:fs');
    const file = join(temp.dir, 'junk.db');
    writeFileSync(file, 'this is not sqlite at all, just some text that is long enough'.repeat(20));
    expect(() => openStore({ file })).toThrowError(
      expect.objectContaining({ code: 'OPEN_FAILED', message: expect.stringContaining(file) }),
    );
  });

  it('fails every use after close with CLOSED', () => {
    const store = openStore({ dataDir: temp.dir });
    store.close();
    expect(() => store.brands.list()).toThrowError(StoreError);
    expect(() => store.brands.list()).toThrowError(expect.objectContaining({ code: 'CLOSED' }));
  });
});

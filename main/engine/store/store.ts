// The engine's memory: one SQLite database (WAL) in the data dir. Every table is reached
// through a repository with typed methods; no SQL lives outside main/engine/store.
// The API key is never stored here (it lives in the OS keychain).
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Db } from './db.ts';
import type { WriteHook } from './db.ts';
import { StoreError } from './store-error.ts';
import { migrate, migrations as defaultMigrations, schemaVersion } from './migrations.ts';
import type { Migration } from './migrations.ts';
import { ActivityRepo } from './activity-repo.ts';
import { BrandEditsRepo } from './brand-edits-repo.ts';
import { BrandsRepo } from './brands-repo.ts';
import { ExportsRepo } from './exports-repo.ts';
import { FilesRepo } from './files-repo.ts';
import { JobsRepo } from './jobs-repo.ts';
import type { JobRecord, JobState } from './jobs-repo.ts';
import { LibraryRepo } from './library-repo.ts';
import { MediaCacheRepo } from './media-cache-repo.ts';
import { SettingsRepo } from './settings-repo.ts';
import { SyncStateRepo } from './sync-state-repo.ts';
import { WorkspacesRepo } from './workspaces-repo.ts';
import type { FileState } from './files-repo.ts';
import type { ActivityEntry } from './activity-repo.ts';

export const databaseFileName = 'brand-sync.db';

/** SQLite's page cache, per connection. */
const CACHE_KIB = 2048;

export interface StoreOptions {
  /** Clock for the timestamps the store writes (tests step it). */
  now?: () => number;
  /**
   * 'full' (default) syncs the WAL on every commit: a committed fact survives a power cut,
   * not only a crash. 'normal' may lose the last commits on power loss (never corrupts).
   */
  durability?: 'full' | 'normal';
  busyTimeoutMs?: number;
  /** Replaces the migration list (tests of the migration rules). */
  migrations?: readonly Migration[];
}

export interface Freshness {
  brandsSyncedAt: number | null;
  workspacesSyncedAt: number | null;
  credits: { workspaceKey: string; syncedAt: number }[];
  libraries: {
    brandId: string;
    lastRefreshAt: number | null;
    lastFullPassAt: number | null;
    lastAttemptAt: number | null;
    lastError: unknown;
  }[];
}

export interface StatusSummary {
  brands: number;
  jobs: Record<JobState, number>;
  files: Record<FileState, number>;
  recentFailures: JobRecord[];
  recentErrors: ActivityEntry[];
  freshness: Freshness;
}

export class Store {
  readonly path: string;
  /** For the store's own modules, tests and benchmarks; the engine goes through the repositories. */
  readonly db: Db;
  readonly now: () => number;
  readonly brands: BrandsRepo;
  readonly workspaces: WorkspacesRepo;
  readonly files: FilesRepo;
  readonly jobs: JobsRepo;
  readonly library: LibraryRepo;
  readonly mediaCache: MediaCacheRepo;
  readonly exports: ExportsRepo;
  readonly edits: BrandEditsRepo;
  readonly settings: SettingsRepo;
  readonly activity: ActivityRepo;
  readonly syncState: SyncStateRepo;

  constructor(path: string, db: Db, now: () => number) {
    this.path = path;
    this.db = db;
    this.now = now;
    this.brands = new BrandsRepo(db, now);
    this.workspaces = new WorkspacesRepo(db, now);
    this.files = new FilesRepo(db, now);
    this.jobs = new JobsRepo(db);
    this.library = new LibraryRepo(db, now);
    this.mediaCache = new MediaCacheRepo(db, now);
    this.exports = new ExportsRepo(db, now);
    this.edits = new BrandEditsRepo(db, now);
    this.settings = new SettingsRepo(db, now);
    this.activity = new ActivityRepo(db, now);
    this.syncState = new SyncStateRepo(db, now);
  }

  /** Runs fn in one transaction: all its writes or none. Nested calls become savepoints. */
  transaction<T>(fn: () => T): T {
    return this.db.tx(fn);
  }

  get schemaVersion(): number {
    return schemaVersion(this.db.raw);
  }

  /** PRAGMA integrity_check: ['ok'] when the file is sound. */
  integrityCheck(): string[] {
    return this.db
      .all<{ integrity_check: string }>('PRAGMA integrity_check')
      .map((row) => row.integrity_check);
  }

  /** Test hook: called before every write statement; throwing makes that write fail. */
  setWriteHook(hook: WriteHook | undefined): void {
    this.db.setWriteHook(hook);
  }

  freshness(): Freshness {
    return {
      brandsSyncedAt: this.syncState.get('brands', '').lastRefreshAt,
      workspacesSyncedAt: this.syncState.get('workspaces', '').lastRefreshAt,
      credits: this.workspaces
        .allCredits()
        .map((c) => ({ workspaceKey: c.workspaceKey, syncedAt: c.syncedAt })),
      libraries: this.syncState.list('library').map((s) => ({
        brandId: s.subject,
        lastRefreshAt: s.lastRefreshAt,
        lastFullPassAt: s.lastFullPassAt,
        lastAttemptAt: s.lastAttemptAt,
        lastError: s.lastError,
      })),
    };
  }

  /** What `status` shows: counts by state, last errors, freshness. */
  statusSummary(): StatusSummary {
    return {
      brands: this.brands.list().length,
      jobs: this.jobs.countsByState(),
      files: this.files.countsByState(),
      recentFailures: this.jobs.recentFailures(5),
      recentErrors: this.activity.list({ minLevel: 'error', limit: 5 }),
      freshness: this.freshness(),
    };
  }

  close(): void {
    this.db.close();
  }
}

/** Opens (creating if needed) the database in the data dir and brings its schema up to date. */
export function openStore(
  location: { dataDir: string } | { file: string },
  options: StoreOptions = {},
): Store {
  let path: string;
  if ('dataDir' in location) {
    keepPrivate(location.dataDir);
    path = join(location.dataDir, databaseFileName);
  } else {
    path = location.file;
  }
  // Only this user reads the database (the key is never in it, but what it syncs is theirs);
  // SQLite gives its WAL and shared-memory files the database file's mode.
  try {
    closeSync(openSync(path, 'a', 0o600));
    chmodSync(path, 0o600);
  } catch {
    // A read-only place or a foreign file: opening it below says what is wrong.
  }
  const now = options.now ?? Date.now;
  let raw: Database.Database;
  try {
    raw = new Database(path);
  } catch (error) {
    throw new StoreError(
      'OPEN_FAILED',
      `Cannot open the database ${path}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  try {
    raw.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    const mode = raw.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') {
      throw new StoreError(
        'WAL_UNAVAILABLE',
        `The database ${path} cannot use WAL mode (got "${String(mode)}").`,
      );
    }
    raw.pragma(`synchronous = ${options.durability === 'normal' ? 'NORMAL' : 'FULL'}`);
    raw.pragma('foreign_keys = ON');
    // 2 MB of page cache: the index of 100,000 files scans as fast as with 16 MB (its pages are
    // met in order), and a long `run` keeps 13 MB less: pages taken and let go during a burst
    // of work leave holes in the C heap that the process never gives back (bench/folder-sync).
    raw.pragma(`cache_size = -${CACHE_KIB}`);
    raw.pragma('temp_store = MEMORY');
    migrate(raw, options.migrations ?? defaultMigrations, now);
  } catch (error) {
    raw.close();
    if (error instanceof StoreError) throw error;
    throw new StoreError(
      'OPEN_FAILED',
      `Cannot open the database ${path}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  return new Store(path, new Db(raw, options.durability !== 'normal'), now);
}

/**
 * The store in the data dir, opened read-only; null when there is no database yet. A
 * database of an older schema is opened normally instead, so that it is migrated first.
 */
export function openStoreReadOnly(dataDir: string): Store | null {
  const path = join(dataDir, databaseFileName);
  if (!existsSync(path)) return null;
  const raw: Database.Database = new Database(path, { readonly: true, fileMustExist: true });
  try {
    raw.pragma('busy_timeout = 5000');
    const latest = defaultMigrations.at(-1)?.version ?? 0;
    if (schemaVersion(raw) !== latest) {
      raw.close();
      return openStore({ dataDir }); // migrates, or says why it cannot
    }
  } catch (error) {
    raw.close();
    throw error;
  }
  return new Store(path, new Db(raw, false), Date.now);
}

/**
 * The data dir holds what only its user should read (the demo's URL with its token, the
 * database): made 0700, and made so again when an older version left it open.
 */
export function keepPrivate(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
}

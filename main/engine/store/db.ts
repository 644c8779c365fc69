// A thin layer over better-sqlite3 that every repository goes through: statements are
// prepared once and cached, every write passes one hook (so a test can make the i-th
// write fail), and transactions are IMMEDIATE (a deferred one that later wants to write
// can fail with SQLITE_BUSY despite the busy timeout when another process wrote first).
import type Database from 'better-sqlite3';
import { StoreError } from './store-error.ts';

type Statement = Database.Statement<unknown[], unknown>;
export type SqlParam = string | number | bigint | null | Uint8Array;
/** Positional values, or one object for named (@name) parameters. */
export type SqlArg = SqlParam | Readonly<Record<string, SqlParam>>;

/** Called before each write statement; throwing makes that write fail. */
export type WriteHook = (writeNumber: number, sql: string) => void;

export class Db {
  readonly raw: Database.Database;
  /** Whether commits wait for fsync (synchronous=FULL); see relaxed(). */
  readonly durable: boolean;
  private readonly statements = new Map<string, Statement>();
  private writeHook: WriteHook | undefined;
  private writes = 0;
  /** Inside relaxed(): commits skip the fsync. */
  private relaxing = 0;
  /** The connection's synchronous setting now (switched only when a commit needs the other). */
  private syncFull: boolean;
  /**
   * One transaction function for every tx(): better-sqlite3 builds five wrappers and their
   * properties for each `transaction(fn)`, some 50 ms of a 2 s burst of 1,000 uploads (a few
   * transactions a file) in a CPU profile.
   */
  private readonly inTx: Database.Transaction<(fn: () => unknown) => unknown>;

  constructor(raw: Database.Database, durable: boolean) {
    this.raw = raw;
    this.durable = durable;
    this.inTx = raw.transaction((fn: () => unknown) => fn());
    this.syncFull = durable;
  }

  setWriteHook(hook: WriteHook | undefined): void {
    this.writeHook = hook;
    this.writes = 0;
  }

  /** Number of write statements run since the hook was set. */
  get writeCount(): number {
    return this.writes;
  }

  /** A write without result rows. */
  run(sql: string, ...params: SqlArg[]): Database.RunResult {
    this.beforeWrite(sql);
    const statement = this.prepare(sql);
    this.beforeCommit();
    return statement.run(...params);
  }

  /** A write with RETURNING: the first returned row, if any. */
  runGet<T>(sql: string, ...params: SqlArg[]): T | undefined {
    this.beforeWrite(sql);
    const statement = this.prepare(sql);
    this.beforeCommit();
    return statement.get(...params) as T | undefined;
  }

  /** A write with RETURNING: every returned row. */
  runAll<T>(sql: string, ...params: SqlArg[]): T[] {
    this.beforeWrite(sql);
    const statement = this.prepare(sql);
    this.beforeCommit();
    return statement.all(...params) as T[];
  }

  get<T>(sql: string, ...params: SqlArg[]): T | undefined {
    return this.prepare(sql).get(...params) as T | undefined;
  }

  all<T>(sql: string, ...params: SqlArg[]): T[] {
    return this.prepare(sql).all(...params) as T[];
  }

  /** Runs fn in one IMMEDIATE transaction (a savepoint when already inside one). */
  tx<T>(fn: () => T): T {
    if (!this.raw.open) throw new StoreError('CLOSED', 'The store is closed.');
    this.beforeCommit();
    return this.inTx.immediate(fn) as T;
  }

  /**
   * Runs fn with its commits not waiting for fsync (synchronous=NORMAL), for data that can
   * be fetched again. Safe to mix with full commits: WAL keeps commits in order and a
   * power cut loses only the newest ones, so a later full commit (a sync's completion
   * marker) that survived implies every relaxed commit before it did too.
   */
  relaxed<T>(fn: () => T): T {
    this.relaxing++;
    try {
      return fn();
    } finally {
      this.relaxing--;
    }
  }

  get inTransaction(): boolean {
    return this.raw.inTransaction;
  }

  close(): void {
    this.statements.clear();
    if (this.raw.open) this.raw.close();
  }

  private prepare(sql: string): Statement {
    if (!this.raw.open) throw new StoreError('CLOSED', 'The store is closed.');
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.raw.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Before a statement or transaction that may commit: the synchronous setting that commit
   * needs. Switched lazily (a pragma costs more than the statements of a small commit), so a
   * run of relaxed commits pays for one switch, not two each.
   */
  private beforeCommit(): void {
    if (!this.durable || this.raw.inTransaction) return;
    const full = this.relaxing === 0;
    if (full === this.syncFull) return;
    this.raw.exec(full ? 'PRAGMA synchronous = FULL' : 'PRAGMA synchronous = NORMAL');
    this.syncFull = full;
  }

  private beforeWrite(sql: string): void {
    if (this.writeHook === undefined) return;
    this.writes++;
    this.writeHook(this.writes, sql);
  }
}

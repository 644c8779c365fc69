// Freshness and progress of each synchronised thing, so the UI can say how old what it
// shows is and a sync interrupted by a crash knows where its trusted data ends.
// scope 'library' + brand ID; 'brands' + ''; 'workspaces' + ''; 'credits' + workspace key.
import type { Db } from './db.ts';
import { fromJson, toJson } from './sql-values.ts';

export interface SyncState {
  scope: string;
  subject: string;
  /** Number of the last sync started. */
  seq: number;
  /** Number of the last sync that ran to its end (0: never). */
  completedSeq: number;
  /** Number of the last complete full pass. */
  fullPassSeq: number | null;
  lastFullPassAt: number | null;
  /** When the last sync (refresh or full pass) completed. */
  lastRefreshAt: number | null;
  lastAttemptAt: number | null;
  lastError: unknown;
}

interface SyncRow {
  scope: string;
  subject: string;
  seq: number;
  completed_seq: number;
  full_pass_seq: number | null;
  last_full_pass_at: number | null;
  last_refresh_at: number | null;
  last_attempt_at: number | null;
  last_error_json: string | null;
}

export class SyncStateRepo {
  private readonly db: Db;
  private readonly now: () => number;

  constructor(db: Db, now: () => number) {
    this.db = db;
    this.now = now;
  }

  get(scope: string, subject: string): SyncState {
    const row = this.db.get<SyncRow>(
      'SELECT * FROM sync_state WHERE scope = ? AND subject = ?',
      scope,
      subject,
    );
    return row === undefined
      ? {
          scope,
          subject,
          seq: 0,
          completedSeq: 0,
          fullPassSeq: null,
          lastFullPassAt: null,
          lastRefreshAt: null,
          lastAttemptAt: null,
          lastError: null,
        }
      : toState(row);
  }

  list(scope: string): SyncState[] {
    return this.db
      .all<SyncRow>('SELECT * FROM sync_state WHERE scope = ? ORDER BY subject', scope)
      .map(toState);
  }

  /** Starts a sync: returns its number, durable before any of its work is. */
  begin(scope: string, subject: string, at: number = this.now()): number {
    const row = this.db.runGet<{ seq: number }>(
      `INSERT INTO sync_state (scope, subject, seq, last_attempt_at) VALUES (?, ?, 1, ?)
       ON CONFLICT(scope, subject) DO UPDATE SET seq = seq + 1, last_attempt_at = excluded.last_attempt_at
       RETURNING seq`,
      scope,
      subject,
      at,
    );
    return (row as { seq: number }).seq;
  }

  complete(
    scope: string,
    subject: string,
    seq: number,
    options: { fullPass: boolean },
    at: number = this.now(),
  ): void {
    this.db.run(
      `UPDATE sync_state SET completed_seq = max(completed_seq, @seq), last_refresh_at = @at, last_error_json = NULL,
         full_pass_seq = CASE WHEN @full THEN @seq ELSE full_pass_seq END,
         last_full_pass_at = CASE WHEN @full THEN @at ELSE last_full_pass_at END
       WHERE scope = @scope AND subject = @subject`,
      { seq, at, full: options.fullPass ? 1 : 0, scope, subject },
    );
  }

  fail(scope: string, subject: string, error: unknown, at: number = this.now()): void {
    this.db.run(
      `INSERT INTO sync_state (scope, subject, last_attempt_at, last_error_json) VALUES (?, ?, ?, ?)
       ON CONFLICT(scope, subject) DO UPDATE SET last_attempt_at = excluded.last_attempt_at,
         last_error_json = excluded.last_error_json`,
      scope,
      subject,
      at,
      toJson(error),
    );
  }

  /** A one-step sync (brands list, credits) finished: begin and complete in one write. */
  markSynced(scope: string, subject: string, at: number = this.now()): void {
    this.db.run(
      `INSERT INTO sync_state (scope, subject, seq, completed_seq, last_refresh_at, last_attempt_at)
       VALUES (?, ?, 1, 1, ?, ?)
       ON CONFLICT(scope, subject) DO UPDATE SET seq = seq + 1, completed_seq = seq + 1,
         last_refresh_at = excluded.last_refresh_at, last_attempt_at = excluded.last_attempt_at,
         last_error_json = NULL`,
      scope,
      subject,
      at,
      at,
    );
  }
}

function toState(row: SyncRow): SyncState {
  return {
    scope: row.scope,
    subject: row.subject,
    seq: row.seq,
    completedSeq: row.completed_seq,
    fullPassSeq: row.full_pass_seq,
    lastFullPassAt: row.last_full_pass_at,
    lastRefreshAt: row.last_refresh_at,
    lastAttemptAt: row.last_attempt_at,
    lastError: fromJson(row.last_error_json),
  };
}

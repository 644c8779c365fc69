// Workspaces and their credit balances. The personal workspace has no ID on the service
// (workspaceId = null); here it is the row with key 'personal'.
import type { Db } from './db.ts';
import { StoreError } from './store-error.ts';
import { fromFlag, toFlag } from './sql-values.ts';

export const personalWorkspaceKey = 'personal';

export interface WorkspaceInput {
  id: string | null;
  name?: string | null;
  isPersonal?: boolean;
  [field: string]: unknown;
}

export interface Workspace {
  key: string;
  id: string | null;
  name: string | null;
  isPersonal: boolean;
  syncedAt: number | null;
}

export interface CreditBalance {
  workspaceKey: string;
  workspaceId: string | null;
  balance: number;
  unlimited: boolean;
  syncedAt: number;
}

interface WorkspaceRow {
  key: string;
  workspace_id: string | null;
  name: string | null;
  is_personal: number;
  synced_at: number | null;
}

interface CreditRow {
  workspace_key: string;
  balance: number;
  unlimited: number;
  synced_at: number;
}

export function workspaceKey(workspaceId: string | null | undefined): string {
  return workspaceId === null || workspaceId === undefined ? personalWorkspaceKey : workspaceId;
}

export class WorkspacesRepo {
  private readonly db: Db;
  private readonly now: () => number;

  constructor(db: Db, now: () => number) {
    this.db = db;
    this.now = now;
  }

  /** Replaces the list with a complete listing from the service; credits of vanished ones go too. */
  replaceAll(list: readonly WorkspaceInput[], syncedAt: number = this.now()): void {
    this.db.tx(() => {
      const keys = list.map((w) => workspaceKey(w.id));
      for (const w of list) {
        const isPersonal = w.isPersonal ?? w.id === null;
        this.db.run(
          `INSERT INTO workspaces (key, workspace_id, name, is_personal, raw_json, synced_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT(key) DO UPDATE SET workspace_id = excluded.workspace_id, name = excluded.name,
             is_personal = excluded.is_personal, raw_json = excluded.raw_json, synced_at = excluded.synced_at`,
          workspaceKey(w.id),
          w.id,
          typeof w.name === 'string' ? w.name : null,
          toFlag(isPersonal),
          JSON.stringify(w),
          syncedAt,
        );
      }
      this.db.run(
        'DELETE FROM workspaces WHERE key NOT IN (SELECT value FROM json_each(?))',
        JSON.stringify(keys),
      );
      this.db.run(
        `DELETE FROM credits WHERE workspace_key <> ? AND workspace_key NOT IN (SELECT value FROM json_each(?))`,
        personalWorkspaceKey,
        JSON.stringify(keys),
      );
    });
  }

  list(): Workspace[] {
    return this.db
      .all<WorkspaceRow>('SELECT * FROM workspaces ORDER BY is_personal DESC, name, key')
      .map((row) => ({
        key: row.key,
        id: row.workspace_id,
        name: row.name,
        isPersonal: fromFlag(row.is_personal),
        syncedAt: row.synced_at,
      }));
  }

  setCredits(
    workspaceId: string | null,
    credits: { balance: number; unlimited: boolean; [field: string]: unknown },
    syncedAt: number = this.now(),
  ): void {
    if (typeof credits.balance !== 'number' || !Number.isFinite(credits.balance)) {
      throw new StoreError(
        'INVALID_ARGUMENT',
        `A credit balance must be a finite number (got ${credits.balance}).`,
      );
    }
    this.db.run(
      `INSERT INTO credits (workspace_key, balance, unlimited, raw_json, synced_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(workspace_key) DO UPDATE SET balance = excluded.balance, unlimited = excluded.unlimited,
         raw_json = excluded.raw_json, synced_at = excluded.synced_at`,
      workspaceKey(workspaceId),
      credits.balance,
      toFlag(credits.unlimited === true),
      JSON.stringify(credits),
      syncedAt,
    );
  }

  credits(workspaceId: string | null): CreditBalance | undefined {
    const row = this.db.get<CreditRow>(
      'SELECT * FROM credits WHERE workspace_key = ?',
      workspaceKey(workspaceId),
    );
    return row === undefined ? undefined : toCredit(row);
  }

  allCredits(): CreditBalance[] {
    return this.db
      .all<CreditRow>(
        `SELECT * FROM credits ORDER BY workspace_key <> '${personalWorkspaceKey}', workspace_key`,
      )
      .map(toCredit);
  }
}

function toCredit(row: CreditRow): CreditBalance {
  return {
    workspaceKey: row.workspace_key,
    workspaceId: row.workspace_key === personalWorkspaceKey ? null : row.workspace_key,
    balance: row.balance,
    unlimited: fromFlag(row.unlimited),
    syncedAt: row.synced_at,
  };
}

// Brands as last seen on the service, plus what only this machine knows (the folder).
import type { Db } from './db.ts';
import { StoreError } from './store-error.ts';
import { fromFlag, fromJson } from './sql-values.ts';
import { requireId } from './arguments.ts';

/** A brand record as the service sends it: only id is certain; everything else is kept raw. */
export interface BrandRecordInput {
  id: string;
  status?: string | null;
  name?: string | null;
  failure?: { code?: string | null; message?: string | null } | null;
  skillId?: string | null;
  workspaceId?: string | null;
  [field: string]: unknown;
}

/** Who a brand is and where its folder is: enough for the folder sync's per-file work. */
export type BrandLink = Pick<Brand, 'id' | 'name' | 'folderName' | 'deletedRemotely'>;

export interface Brand {
  id: string;
  name: string | null;
  status: string | null;
  failureCode: string | null;
  failureMessage: string | null;
  skillId: string | null;
  workspaceId: string | null;
  folderName: string | null;
  deletedRemotely: boolean;
  /** The last record the service sent, unknown fields included. */
  raw: unknown;
  createdAt: number;
  updatedAt: number;
  lastSyncedAt: number | null;
}

interface BrandRow {
  id: string;
  name: string | null;
  status: string | null;
  failure_code: string | null;
  failure_message: string | null;
  skill_id: string | null;
  workspace_id: string | null;
  folder_name: string | null;
  deleted_remotely: number;
  raw_json: string | null;
  created_at: number;
  updated_at: number;
  last_synced_at: number | null;
}

/** The name to show: the service's, else the local folder's, else the ID (docs/service.md, Brand record). */
export function brandDisplayName(brand: Pick<Brand, 'id' | 'name' | 'folderName'>): string {
  return brand.name ?? brand.folderName ?? brand.id;
}

export class BrandsRepo {
  private readonly db: Db;
  private readonly now: () => number;

  constructor(db: Db, now: () => number) {
    this.db = db;
    this.now = now;
  }

  /** Records what the service said about a brand; it exists there, so it is not deleted. */
  upsertFromService(record: BrandRecordInput, syncedAt: number = this.now()): Brand {
    requireId(record.id, 'brand');
    const failure = record.failure ?? null;
    const row = this.db.runGet<BrandRow>(
      `INSERT INTO brands (id, name, status, failure_code, failure_message, skill_id, workspace_id,
         deleted_remotely, raw_json, created_at, updated_at, last_synced_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET name = excluded.name, status = excluded.status,
         failure_code = excluded.failure_code, failure_message = excluded.failure_message,
         skill_id = excluded.skill_id, workspace_id = excluded.workspace_id, deleted_remotely = 0,
         raw_json = excluded.raw_json, updated_at = excluded.updated_at,
         last_synced_at = excluded.last_synced_at
       RETURNING *`,
      record.id,
      str(record.name),
      str(record.status),
      str(failure?.code),
      str(failure?.message),
      str(record.skillId),
      str(record.workspaceId),
      JSON.stringify(record),
      syncedAt,
      syncedAt,
      syncedAt,
    );
    return toBrand(row as BrandRow);
  }

  /** Makes sure a row exists (other tables refer to brands); never overwrites one. */
  ensure(id: string): void {
    requireId(id, 'brand');
    const at = this.now();
    this.db.run(
      'INSERT INTO brands (id, created_at, updated_at) VALUES (?, ?, ?) ON CONFLICT(id) DO NOTHING',
      id,
      at,
      at,
    );
  }

  get(id: string): Brand | undefined {
    const row = this.db.get<BrandRow>('SELECT * FROM brands WHERE id = ?', id);
    return row === undefined ? undefined : toBrand(row);
  }

  /**
   * The brand's folder link alone, for what asks per file (an upload looks it up twice):
   * the whole record's service JSON is not parsed for it.
   */
  linkOf(id: string): BrandLink | undefined {
    const row = this.db.get<Pick<BrandRow, 'id' | 'name' | 'folder_name' | 'deleted_remotely'>>(
      'SELECT id, name, folder_name, deleted_remotely FROM brands WHERE id = ?',
      id,
    );
    if (row === undefined) return undefined;
    return {
      id: row.id,
      name: row.name,
      folderName: row.folder_name,
      deletedRemotely: fromFlag(row.deleted_remotely),
    };
  }

  findByFolder(folderName: string): Brand | undefined {
    const row = this.db.get<BrandRow>('SELECT * FROM brands WHERE folder_name = ?', folderName);
    return row === undefined ? undefined : toBrand(row);
  }

  list(options: { includeDeleted?: boolean } = {}): Brand[] {
    const rows = options.includeDeleted
      ? this.db.all<BrandRow>('SELECT * FROM brands ORDER BY coalesce(name, folder_name, id), id')
      : this.db.all<BrandRow>(
          'SELECT * FROM brands WHERE deleted_remotely = 0 ORDER BY coalesce(name, folder_name, id), id',
        );
    return rows.map(toBrand);
  }

  /** Links the brand to its folder under the sync root (null unlinks). One folder per brand. */
  setFolder(id: string, folderName: string | null): void {
    if (folderName !== null && folderName.trim() === '') {
      throw new StoreError('INVALID_ARGUMENT', `Brand ${id}: a folder name cannot be empty.`);
    }
    const holder = folderName === null ? undefined : this.findByFolder(folderName);
    if (holder !== undefined && holder.id !== id) {
      throw new StoreError(
        'INVALID_ARGUMENT',
        `Folder "${folderName}" already belongs to brand ${holder.id}.`,
      );
    }
    const result = this.db.run(
      'UPDATE brands SET folder_name = ?, updated_at = ? WHERE id = ?',
      folderName,
      this.now(),
      id,
    );
    if (result.changes === 0) throw new StoreError('NOT_FOUND', `No brand ${id} in the store.`);
  }

  markDeletedRemotely(id: string, at: number = this.now()): void {
    this.db.run(
      'UPDATE brands SET deleted_remotely = 1, updated_at = ?, last_synced_at = ? WHERE id = ?',
      at,
      at,
      id,
    );
  }

  /** After a complete listing: every known brand the service did not list is gone there. */
  markMissingAsDeleted(listedIds: readonly string[], at: number = this.now()): number {
    return this.db.run(
      `UPDATE brands SET deleted_remotely = 1, updated_at = ?, last_synced_at = ?
       WHERE deleted_remotely = 0 AND id NOT IN (SELECT value FROM json_each(?))`,
      at,
      at,
      JSON.stringify(listedIds),
    ).changes;
  }

  /** Forgets the brand and everything stored for it (files, Library, exports, edits). */
  remove(id: string): boolean {
    return this.db.tx(() => {
      this.db.run("DELETE FROM sync_state WHERE subject = ? AND scope = 'library'", id);
      return this.db.run('DELETE FROM brands WHERE id = ?', id).changes > 0;
    });
  }
}

function toBrand(row: BrandRow): Brand {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    failureCode: row.failure_code,
    failureMessage: row.failure_message,
    skillId: row.skill_id,
    workspaceId: row.workspace_id,
    folderName: row.folder_name,
    deletedRemotely: fromFlag(row.deleted_remotely),
    raw: fromJson(row.raw_json),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastSyncedAt: row.last_synced_at,
  };
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

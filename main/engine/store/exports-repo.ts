// Brand exports as the service reported them, and which one lies unpacked on disk.
import type { Db } from './db.ts';
import { StoreError } from './store-error.ts';
import { fromJson, fromNullableFlag, toFlag } from './sql-values.ts';
import { requireId } from './arguments.ts';

export interface ExportRecordInput {
  id: string;
  skillId?: string | null;
  status?: string | null;
  download?: { url?: string | null; [field: string]: unknown } | null;
  failure?: { retryable?: boolean | null; [field: string]: unknown } | null;
  [field: string]: unknown;
}

export interface BrandExport {
  id: string;
  brandId: string;
  skillId: string | null;
  status: string | null;
  downloadUrl: string | null;
  failureRetryable: boolean | null;
  raw: unknown;
  installedAt: number | null;
  /** Where the unpacked Skill lies, when installed. */
  path: string | null;
  createdAt: number;
  updatedAt: number;
}

interface ExportRow {
  id: string;
  brand_id: string;
  skill_id: string | null;
  status: string | null;
  download_url: string | null;
  failure_retryable: number | null;
  raw_json: string | null;
  installed_at: number | null;
  path: string | null;
  created_at: number;
  updated_at: number;
}

export class ExportsRepo {
  private readonly db: Db;
  private readonly now: () => number;

  constructor(db: Db, now: () => number) {
    this.db = db;
    this.now = now;
  }

  upsertFromService(
    brandId: string,
    record: ExportRecordInput,
    at: number = this.now(),
  ): BrandExport {
    requireId(brandId, 'brand');
    requireId(record.id, 'export');
    const retryable = record.failure?.retryable;
    const row = this.db.runGet<ExportRow>(
      `INSERT INTO exports (id, brand_id, skill_id, status, download_url, failure_retryable, raw_json, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET skill_id = excluded.skill_id, status = excluded.status,
         download_url = excluded.download_url, failure_retryable = excluded.failure_retryable,
         raw_json = excluded.raw_json, updated_at = excluded.updated_at
       RETURNING *`,
      record.id,
      brandId,
      typeof record.skillId === 'string' ? record.skillId : null,
      typeof record.status === 'string' ? record.status : null,
      typeof record.download?.url === 'string' ? record.download.url : null,
      typeof retryable === 'boolean' ? toFlag(retryable) : null,
      JSON.stringify(record),
      at,
      at,
    );
    return toExport(row as ExportRow);
  }

  /** The export's Skill now lies unpacked at path. */
  markInstalled(exportId: string, path: string, at: number = this.now()): BrandExport {
    if (path.trim() === '')
      throw new StoreError('INVALID_ARGUMENT', 'An installed export needs its path.');
    const row = this.db.runGet<ExportRow>(
      'UPDATE exports SET installed_at = ?, path = ?, updated_at = ? WHERE id = ? RETURNING *',
      at,
      path,
      at,
      exportId,
    );
    if (row === undefined) throw new StoreError('NOT_FOUND', `No export ${exportId} in the store.`);
    return toExport(row);
  }

  get(id: string): BrandExport | undefined {
    const row = this.db.get<ExportRow>('SELECT * FROM exports WHERE id = ?', id);
    return row === undefined ? undefined : toExport(row);
  }

  latest(brandId: string): BrandExport | undefined {
    const row = this.db.get<ExportRow>(
      'SELECT * FROM exports WHERE brand_id = ? ORDER BY updated_at DESC, id DESC LIMIT 1',
      brandId,
    );
    return row === undefined ? undefined : toExport(row);
  }

  latestInstalled(brandId: string): BrandExport | undefined {
    const row = this.db.get<ExportRow>(
      'SELECT * FROM exports WHERE brand_id = ? AND installed_at IS NOT NULL ORDER BY installed_at DESC LIMIT 1',
      brandId,
    );
    return row === undefined ? undefined : toExport(row);
  }

  list(brandId: string): BrandExport[] {
    return this.db
      .all<ExportRow>(
        'SELECT * FROM exports WHERE brand_id = ? ORDER BY updated_at DESC, id DESC',
        brandId,
      )
      .map(toExport);
  }
}

function toExport(row: ExportRow): BrandExport {
  return {
    id: row.id,
    brandId: row.brand_id,
    skillId: row.skill_id,
    status: row.status,
    downloadUrl: row.download_url,
    failureRetryable: fromNullableFlag(row.failure_retryable),
    raw: fromJson(row.raw_json),
    installedAt: row.installed_at,
    path: row.path,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

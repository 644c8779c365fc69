// Brand Edits as the service last showed them (raw record kept whole: its shape is open).
import type { Db } from './db.ts';
import { requireId } from './arguments.ts';

export interface BrandEditInput {
  id: string;
  status?: string | null;
  [field: string]: unknown;
}

export interface StoredBrandEdit {
  id: string;
  brandId: string;
  status: string | null;
  raw: Record<string, unknown>;
  syncedAt: number;
  updatedAt: number;
}

interface EditRow {
  id: string;
  brand_id: string;
  status: string | null;
  raw_json: string;
  synced_at: number;
  updated_at: number;
}

export class BrandEditsRepo {
  private readonly db: Db;
  private readonly now: () => number;

  constructor(db: Db, now: () => number) {
    this.db = db;
    this.now = now;
  }

  upsert(brandId: string, edit: BrandEditInput, at: number = this.now()): StoredBrandEdit {
    requireId(brandId, 'brand');
    requireId(edit.id, 'Brand Edit');
    const row = this.db.runGet<EditRow>(
      `INSERT INTO brand_edits (id, brand_id, status, raw_json, synced_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET status = excluded.status, raw_json = excluded.raw_json,
         synced_at = excluded.synced_at, updated_at = excluded.updated_at
       RETURNING *`,
      edit.id,
      brandId,
      typeof edit.status === 'string' ? edit.status : null,
      JSON.stringify(edit),
      at,
      at,
    );
    return toEdit(row as EditRow);
  }

  /** After a complete listing of a brand's edits: the ones not listed are gone. */
  replaceForBrand(
    brandId: string,
    edits: readonly BrandEditInput[],
    at: number = this.now(),
  ): void {
    this.db.tx(() => {
      for (const edit of edits) this.upsert(brandId, edit, at);
      this.db.run(
        'DELETE FROM brand_edits WHERE brand_id = ? AND id NOT IN (SELECT value FROM json_each(?))',
        brandId,
        JSON.stringify(edits.map((e) => e.id)),
      );
    });
  }

  get(brandId: string, editId: string): StoredBrandEdit | undefined {
    const row = this.db.get<EditRow>(
      'SELECT * FROM brand_edits WHERE brand_id = ? AND id = ?',
      brandId,
      editId,
    );
    return row === undefined ? undefined : toEdit(row);
  }

  list(brandId: string, options: { status?: string } = {}): StoredBrandEdit[] {
    const rows =
      options.status === undefined
        ? this.db.all<EditRow>(
            'SELECT * FROM brand_edits WHERE brand_id = ? ORDER BY updated_at DESC, id',
            brandId,
          )
        : this.db.all<EditRow>(
            'SELECT * FROM brand_edits WHERE brand_id = ? AND status = ? ORDER BY updated_at DESC, id',
            brandId,
            options.status,
          );
    return rows.map(toEdit);
  }

  remove(brandId: string, editId: string): boolean {
    return (
      this.db.run('DELETE FROM brand_edits WHERE brand_id = ? AND id = ?', brandId, editId)
        .changes > 0
    );
  }
}

function toEdit(row: EditRow): StoredBrandEdit {
  return {
    id: row.id,
    brandId: row.brand_id,
    status: row.status,
    raw: JSON.parse(row.raw_json) as Record<string, unknown>,
    syncedAt: row.synced_at,
    updatedAt: row.updated_at,
  };
}

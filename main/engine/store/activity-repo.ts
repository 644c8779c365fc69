// The activity log the UI and `status` show: what happened, to which brand and file.
// Bounded: old entries are pruned so the log cannot grow without end.
import type { Db } from './db.ts';
import { StoreError } from './store-error.ts';
import { fromJson, toJson } from './sql-values.ts';
import { pageLimit, requireOneOf } from './arguments.ts';

export const activityLevels = ['debug', 'info', 'warn', 'error'] as const;
export type ActivityLevel = (typeof activityLevels)[number];

export interface ActivityInput {
  level: ActivityLevel;
  code: string;
  message: string;
  brandId?: string | null;
  path?: string | null;
  data?: unknown;
  at?: number;
}

export interface ActivityEntry {
  id: number;
  at: number;
  level: ActivityLevel;
  code: string;
  message: string;
  brandId: string | null;
  path: string | null;
  data: unknown;
}

interface ActivityRow {
  id: number;
  at: number;
  level: ActivityLevel;
  code: string;
  message: string;
  brand_id: string | null;
  path: string | null;
  data_json: string | null;
}

export class ActivityRepo {
  private readonly db: Db;
  private readonly now: () => number;

  constructor(db: Db, now: () => number) {
    this.db = db;
    this.now = now;
  }

  add(entry: ActivityInput): number {
    requireOneOf(entry.level, activityLevels, 'Activity level');
    if (entry.code.trim() === '')
      throw new StoreError('INVALID_ARGUMENT', 'An activity entry needs a code.');
    const result = this.db.run(
      'INSERT INTO activity (at, level, code, message, brand_id, path, data_json) VALUES (?, ?, ?, ?, ?, ?, ?)',
      entry.at ?? this.now(),
      entry.level,
      entry.code,
      entry.message,
      entry.brandId ?? null,
      entry.path ?? null,
      toJson(entry.data),
    );
    return Number(result.lastInsertRowid);
  }

  /** Newest first; pass the last id as beforeId for the next page. */
  list(
    options: { brandId?: string; minLevel?: ActivityLevel; beforeId?: number; limit?: number } = {},
  ): ActivityEntry[] {
    const limit = pageLimit(options.limit, 100, 1000);
    const levels = activityLevels.slice(activityLevels.indexOf(options.minLevel ?? 'debug'));
    const byBrand = options.brandId !== undefined;
    const rows = this.db.all<ActivityRow>(
      `SELECT * FROM activity WHERE id < @before ${byBrand ? 'AND brand_id = @brand' : ''}
         AND level IN (SELECT value FROM json_each(@levels))
       ORDER BY id DESC LIMIT @limit`,
      {
        before: options.beforeId ?? Number.MAX_SAFE_INTEGER,
        levels: JSON.stringify(levels),
        limit,
        ...(byBrand ? { brand: options.brandId as string } : {}),
      },
    );
    return rows.map((row) => ({
      id: row.id,
      at: row.at,
      level: row.level,
      code: row.code,
      message: row.message,
      brandId: row.brand_id,
      path: row.path,
      data: fromJson(row.data_json),
    }));
  }

  /** Keeps the newest `keep` entries; returns how many were removed. */
  prune(keep: number): number {
    return this.db.run(
      'DELETE FROM activity WHERE id <= (SELECT id FROM activity ORDER BY id DESC LIMIT 1 OFFSET ?)',
      keep,
    ).changes;
  }
}

// The offline mirror of every brand's Library. Listing is keyset-paged on an index that
// matches its order (newest first), so a page deep in a million items costs the same as
// the first one: no OFFSET, no scan.
import type { Db } from './db.ts';
import { StoreError } from './store-error.ts';
import { fromNullableFlag } from './sql-values.ts';
import { pageLimit, requireId } from './arguments.ts';

/** One media file of a Library, as normalized from the service's record. */
export interface LibraryItemInput {
  id: string;
  /** image, video, audio, or a value added later: kept as sent. */
  type: string;
  source: string | null;
  workspaceId: string | null;
  mimeType: string | null;
  url: string | null;
  fileSize: number | null;
  durationMs: number | null;
  width: number | null;
  height: number | null;
  description: string | null;
  inLibrary: boolean | null;
  addedToLibraryAt: string | null;
  generationId: string | null;
  createdAt: string | null;
  /** The record exactly as the service sent it (unknown fields included). */
  raw: unknown;
}

export interface LibraryItem extends Omit<LibraryItemInput, 'raw'> {
  brandId: string;
  /** The path, in its brand folder, of the local file this item was uploaded from; else null. */
  fileName: string | null;
  /** The order key: addedToLibraryAt, else createdAt, else first sighting (ms). */
  sortAt: number;
  firstSeenAt: number;
  lastSeenAt: number;
  removed: boolean;
  removedAt: number | null;
}

export interface LibraryItemWithRaw extends LibraryItem {
  raw: unknown;
}

export interface LibraryQuery {
  type?: string;
  /** Words of the file name, description or source; each must appear (as a word or a word's beginning). */
  search?: string;
  /** true: list the items that left the Library instead of the ones in it. */
  removed?: boolean;
  limit?: number;
  cursor?: string | null;
}

export interface LibraryPage {
  items: LibraryItem[];
  nextCursor: string | null;
}

export interface PageUpsertResult {
  inserted: number;
  updated: number;
  unchanged: number;
  /** Items that were already mirrored by a sync numbered <= trustedSeq, and not removed. */
  trustedKnown: number;
  /** IDs of the items new to the mirror or back after a removal, in the page's order. */
  added: string[];
}

interface ItemRow {
  id: string;
  brand_id: string;
  type: string;
  source: string | null;
  workspace_id: string | null;
  mime_type: string | null;
  url: string | null;
  file_size: number | null;
  duration_ms: number | null;
  width: number | null;
  height: number | null;
  description: string | null;
  in_library: number | null;
  added_to_library_at: string | null;
  generation_id: string | null;
  created_at: string | null;
  sort_at: number;
  first_seen_at: number;
  last_seen_at: number;
  removed: number;
  removed_at: number | null;
  file_name: string | null;
}

const itemColumns = `id, brand_id, type, source, workspace_id, mime_type, url, file_size, duration_ms, width, height,
  description, in_library, added_to_library_at, generation_id, created_at, sort_at, first_seen_at, last_seen_at,
  removed, removed_at, file_name`;

export class LibraryRepo {
  private readonly db: Db;
  private readonly now: () => number;

  constructor(db: Db, now: () => number) {
    this.db = db;
    this.now = now;
  }

  /**
   * Stores one page of a sync numbered `seq` in one transaction. Unchanged items only get
   * their "seen" marks (no index is rewritten), so a full pass over an unchanged Library
   * stays cheap. The page is a copy of the service's data: its commit does not wait for
   * fsync (Db.relaxed); the sync's completion marker does, and vouches for the pages.
   */
  upsertPage(
    brandId: string,
    items: readonly LibraryItemInput[],
    sync: { seq: number; trustedSeq: number },
    at: number = this.now(),
  ): PageUpsertResult {
    requireId(brandId, 'brand');
    const result: PageUpsertResult = {
      inserted: 0,
      updated: 0,
      unchanged: 0,
      trustedKnown: 0,
      added: [],
    };
    if (items.length === 0) return result;
    return this.db.relaxed(() =>
      this.db.tx(() => {
        this.db.run(
          'INSERT INTO brands (id, created_at, updated_at) VALUES (?, ?, ?) ON CONFLICT(id) DO NOTHING',
          brandId,
          at,
          at,
        );
        const known = new Map<
          string,
          { brand_id: string; first_seen_seq: number; removed: number; raw_json: string }
        >();
        const rows = this.db.all<{
          id: string;
          brand_id: string;
          first_seen_seq: number;
          removed: number;
          raw_json: string;
        }>(
          `SELECT id, brand_id, first_seen_seq, removed, raw_json FROM library_items
         WHERE id IN (SELECT value FROM json_each(?))`,
          JSON.stringify(items.map((item) => item.id)),
        );
        for (const row of rows) known.set(row.id, row);
        // The local files this page's new items were uploaded from name them (one query a page).
        const fileNames = new Map(
          this.db
            .all<{ image_id: string; rel_path: string }>(
              `SELECT image_id, rel_path FROM files INDEXED BY files_image
               WHERE brand_id = ? AND image_id IN (SELECT value FROM json_each(?))
               ORDER BY updated_at`,
              brandId,
              JSON.stringify(items.filter((item) => !known.has(item.id)).map((item) => item.id)),
            )
            .map((row) => [row.image_id, row.rel_path]),
        );
        const unchangedIds: string[] = [];
        for (const item of items) {
          const rawJson = JSON.stringify(item.raw);
          const old = known.get(item.id);
          if (old !== undefined && old.removed === 0 && old.first_seen_seq <= sync.trustedSeq)
            result.trustedKnown++;
          if (old === undefined || old.removed !== 0) result.added.push(item.id);
          if (
            old !== undefined &&
            old.raw_json === rawJson &&
            old.brand_id === brandId &&
            old.removed === 0
          ) {
            unchangedIds.push(item.id);
            result.unchanged++;
            continue;
          }
          this.writeItem(brandId, item, rawJson, sync.seq, at, fileNames.get(item.id) ?? null);
          if (old === undefined) result.inserted++;
          else result.updated++;
        }
        if (unchangedIds.length > 0) {
          this.db.run(
            'UPDATE library_items SET seen_seq = ?, last_seen_at = ? WHERE id IN (SELECT value FROM json_each(?))',
            sync.seq,
            at,
            JSON.stringify(unchangedIds),
          );
        }
        return result;
      }),
    );
  }

  /** After a complete full pass numbered seq: items it did not see left the Library. */
  markUnseenRemoved(brandId: string, fullPassSeq: number, at: number = this.now()): string[] {
    return this.db
      .all<{ id: string }>(
        `UPDATE library_items SET removed = 1, removed_at = ?
         WHERE brand_id = ? AND removed = 0 AND seen_seq < ? RETURNING id`,
        at,
        brandId,
        fullPassSeq,
      )
      .map((row) => row.id);
  }

  get(id: string): LibraryItemWithRaw | undefined {
    const row = this.db.get<ItemRow & { raw_json: string }>(
      `SELECT ${itemColumns}, raw_json FROM library_items WHERE id = ?`,
      id,
    );
    return row === undefined
      ? undefined
      : { ...toItem(row), raw: JSON.parse(row.raw_json) as unknown };
  }

  /**
   * A page of a brand's Library (null: of every brand's), newest first. Works offline; pass
   * nextCursor back for the next page.
   */
  list(brandId: string | null, query: LibraryQuery = {}): LibraryPage {
    const { sql, params, limit } = this.listStatement(brandId, query);
    const rows = this.db.all<ItemRow>(sql, params);
    const items = rows.slice(0, limit).map(toItem);
    const last = items.at(-1);
    return {
      items,
      nextCursor:
        rows.length > limit && last !== undefined ? encodeCursor(last.sortAt, last.id) : null,
    };
  }

  /** How SQLite runs list() for these arguments (for tests and diagnostics: no SCAN allowed). */
  listPlan(brandId: string | null, query: LibraryQuery = {}): string[] {
    const { sql, params } = this.listStatement(brandId, query);
    return this.db
      .all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params)
      .map((row) => row.detail);
  }

  count(brandId: string | null, query: { type?: string; removed?: boolean } = {}): number {
    const removed = query.removed === true ? 1 : 0;
    if (brandId === null) {
      return (
        (query.type === undefined
          ? this.db.get<{ n: number }>(
              'SELECT count(*) AS n FROM library_items WHERE removed = ?',
              removed,
            )
          : this.db.get<{ n: number }>(
              'SELECT count(*) AS n FROM library_items WHERE type = ? AND removed = ?',
              query.type,
              removed,
            )
        )?.n ?? 0
      );
    }
    const row =
      query.type === undefined
        ? this.db.get<{ n: number }>(
            'SELECT count(*) AS n FROM library_items WHERE brand_id = ? AND removed = ?',
            brandId,
            removed,
          )
        : this.db.get<{ n: number }>(
            'SELECT count(*) AS n FROM library_items WHERE brand_id = ? AND type = ? AND removed = ?',
            brandId,
            query.type,
            removed,
          );
    return row?.n ?? 0;
  }

  /** Items per media type (unknown types included), for the filter menu. */
  typeCounts(brandId: string | null): { type: string; count: number }[] {
    if (brandId === null) {
      return this.db.all<{ type: string; count: number }>(
        `SELECT type, count(*) AS count FROM library_items INDEXED BY library_all_by_type
         WHERE removed = 0 GROUP BY type ORDER BY count DESC, type`,
      );
    }
    return this.db.all<{ type: string; count: number }>(
      `SELECT type, count(*) AS count FROM library_items INDEXED BY library_by_type
       WHERE brand_id = ? AND removed = 0 GROUP BY type ORDER BY count DESC, type`,
      brandId,
    );
  }

  private writeItem(
    brandId: string,
    item: LibraryItemInput,
    rawJson: string,
    seq: number,
    at: number,
    fileName: string | null,
  ): void {
    this.db.run(
      `INSERT INTO library_items (id, brand_id, type, source, workspace_id, mime_type, url, file_size, duration_ms,
         width, height, description, in_library, added_to_library_at, generation_id, created_at, sort_at, raw_json,
         first_seen_seq, seen_seq, first_seen_at, last_seen_at, removed, file_name)
       VALUES (@id, @brand, @type, @source, @workspace, @mime, @url, @size, @duration, @width, @height, @description,
         @inLibrary, @added, @generation, @created, @sortAt, @raw, @seq, @seq, @at, @at, 0, @fileName)
       ON CONFLICT(id) DO UPDATE SET brand_id = excluded.brand_id, type = excluded.type, source = excluded.source,
         workspace_id = excluded.workspace_id, mime_type = excluded.mime_type, url = excluded.url,
         file_size = excluded.file_size, duration_ms = excluded.duration_ms, width = excluded.width,
         height = excluded.height, description = excluded.description, in_library = excluded.in_library,
         added_to_library_at = excluded.added_to_library_at, generation_id = excluded.generation_id,
         created_at = excluded.created_at, sort_at = excluded.sort_at, raw_json = excluded.raw_json,
         seen_seq = excluded.seen_seq, last_seen_at = excluded.last_seen_at, removed = 0, removed_at = NULL`,
      {
        id: item.id,
        brand: brandId,
        type: item.type,
        source: item.source,
        workspace: item.workspaceId,
        mime: item.mimeType,
        url: item.url,
        size: item.fileSize,
        duration: item.durationMs,
        width: item.width,
        height: item.height,
        description: item.description,
        inLibrary: item.inLibrary === null ? null : item.inLibrary ? 1 : 0,
        added: item.addedToLibraryAt,
        generation: item.generationId,
        created: item.createdAt,
        sortAt: sortKey(item, at),
        raw: rawJson,
        seq,
        at,
        // Kept on an update: the files table's trigger renames the item when its file moves.
        fileName,
      },
    );
  }

  /**
   * Items in the Library of any brand whose file name, description or source holds every
   * word typed (a word's beginning is enough; accents are ignored), best first: the command
   * palette's answer. Ranked among the newest `scan` matches at most, so that one common
   * letter typed costs what a rare word does (FTS5 walks matches newest first and stops).
   */
  find(text: string, limit = 20, scan = 400): LibraryItem[] {
    const match = ftsQuery(text);
    if (match === null) return [];
    const rows = this.db.all<ItemRow>(
      `SELECT ${prefixed('li')} FROM (
         SELECT rowid, bm25(library_search, 10.0, 2.0, 1.0) AS score FROM library_search
         WHERE library_search MATCH @match ORDER BY rowid DESC LIMIT @scan
       ) m CROSS JOIN library_items li ON li.rowid = m.rowid
       WHERE li.removed = 0 ORDER BY m.score, li.sort_at DESC LIMIT @limit`,
      { match, scan: pageLimit(scan, 400, 10_000), limit: pageLimit(limit, 20, 500) },
    );
    return rows.map(toItem);
  }

  /** How SQLite runs find() (for tests: the word index drives, no scan of the items). */
  findPlan(text: string): string[] {
    return this.db
      .all<{ detail: string }>(
        `EXPLAIN QUERY PLAN SELECT ${prefixed('li')} FROM (
           SELECT rowid, bm25(library_search, 10.0, 2.0, 1.0) AS score FROM library_search
           WHERE library_search MATCH @match ORDER BY rowid DESC LIMIT 400
         ) m CROSS JOIN library_items li ON li.rowid = m.rowid
         WHERE li.removed = 0 ORDER BY m.score, li.sort_at DESC LIMIT 20`,
        { match: ftsQuery(text) ?? '""' },
      )
      .map((row) => row.detail);
  }

  private listStatement(
    brandId: string | null,
    query: LibraryQuery,
  ): { sql: string; params: Record<string, string | number>; limit: number } {
    const limit = pageLimit(query.limit, 50, 500);
    const params: Record<string, string | number> = {
      removed: query.removed === true ? 1 : 0,
    };
    const where = ['li.removed = @removed'];
    if (brandId !== null) {
      where.unshift('li.brand_id = @brand');
      params.brand = brandId;
    }
    if (query.type !== undefined) {
      where.push('li.type = @type');
      params.type = query.type;
    }
    if (query.cursor !== undefined && query.cursor !== null) {
      const [sortAt, id] = decodeCursor(query.cursor);
      where.push('(li.sort_at, li.id) < (@sortAt, @afterId)');
      params.sortAt = sortAt;
      params.afterId = id;
    }
    params.limit = limit + 1;
    const match = query.search === undefined ? null : ftsQuery(query.search);
    const order = 'ORDER BY li.sort_at DESC, li.id DESC LIMIT @limit';
    const columns = prefixed('li');
    if (match === null) {
      return {
        sql: `SELECT ${columns} FROM library_items li WHERE ${where.join(' AND ')} ${order}`,
        params,
        limit,
      };
    }
    params.match = match;
    // CROSS JOIN makes the word index drive: matches are found first, then filtered and sorted.
    return {
      sql: `SELECT ${columns} FROM library_search CROSS JOIN library_items li ON li.rowid = library_search.rowid
            WHERE library_search MATCH @match AND ${where.join(' AND ')} ${order}`,
      params,
      limit,
    };
  }
}

/** The service's "most recently added first", as a number: addedToLibraryAt, else createdAt, else now. */
function sortKey(item: LibraryItemInput, fallback: number): number {
  for (const text of [item.addedToLibraryAt, item.createdAt]) {
    if (text === null) continue;
    const ms = Date.parse(text);
    if (Number.isFinite(ms)) return ms;
  }
  return fallback;
}

/** User words → an FTS5 query: every word must match, as a whole word or a prefix. Null: no words. */
export function ftsQuery(text: string): string | null {
  const words = text
    .normalize('NFC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
  if (words.length === 0) return null;
  return words.map((w) => `"${w}"*`).join(' ');
}

function prefixed(alias: string): string {
  return itemColumns
    .split(',')
    .map((c) => `${alias}.${c.trim()}`)
    .join(', ');
}

function encodeCursor(sortAt: number, id: string): string {
  return Buffer.from(JSON.stringify([sortAt, id])).toString('base64url');
}

function decodeCursor(cursor: string): [number, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'number' &&
      Number.isFinite(value[0]) &&
      typeof value[1] === 'string'
    ) {
      return [value[0], value[1]];
    }
  } catch {
    // fall through to the error below
  }
  throw new StoreError(
    'INVALID_CURSOR',
    `"${cursor}" is not a Library cursor handed out by this store.`,
  );
}

function toItem(row: ItemRow): LibraryItem {
  return {
    id: row.id,
    brandId: row.brand_id,
    type: row.type,
    source: row.source,
    workspaceId: row.workspace_id,
    mimeType: row.mime_type,
    url: row.url,
    fileSize: row.file_size,
    durationMs: row.duration_ms,
    width: row.width,
    height: row.height,
    description: row.description,
    inLibrary: fromNullableFlag(row.in_library),
    addedToLibraryAt: row.added_to_library_at,
    generationId: row.generation_id,
    createdAt: row.created_at,
    sortAt: row.sort_at,
    firstSeenAt: row.first_seen_at,
    lastSeenAt: row.last_seen_at,
    removed: row.removed === 1,
    removedAt: row.removed_at,
    fileName: row.file_name,
  };
}

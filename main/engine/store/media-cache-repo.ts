// Bookkeeping of the offline image cache: which Library item lies in which file, how big,
// and when it was last viewed (for least-recently-used eviction).
import type { Db } from './db.ts';

export interface CachedMedia {
  itemId: string;
  relPath: string;
  bytes: number;
  mimeType: string | null;
  storedAt: number;
  lastUsedAt: number;
}

interface CacheRow {
  item_id: string;
  rel_path: string;
  bytes: number;
  mime_type: string | null;
  stored_at: number;
  last_used_at: number;
}

export class MediaCacheRepo {
  private readonly db: Db;
  private readonly now: () => number;

  constructor(db: Db, now: () => number) {
    this.db = db;
    this.now = now;
  }

  get(itemId: string): CachedMedia | undefined {
    const row = this.db.get<CacheRow>('SELECT * FROM media_cache WHERE item_id = ?', itemId);
    return row === undefined ? undefined : toCached(row);
  }

  put(
    entry: { itemId: string; relPath: string; bytes: number; mimeType: string | null },
    at: number = this.now(),
  ): void {
    this.db.run(
      `INSERT INTO media_cache (item_id, rel_path, bytes, mime_type, stored_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(item_id) DO UPDATE SET rel_path = excluded.rel_path, bytes = excluded.bytes,
         mime_type = excluded.mime_type, stored_at = excluded.stored_at, last_used_at = excluded.last_used_at`,
      entry.itemId,
      entry.relPath,
      entry.bytes,
      entry.mimeType,
      at,
      at,
    );
  }

  touch(itemId: string, at: number = this.now()): void {
    this.db.run('UPDATE media_cache SET last_used_at = ? WHERE item_id = ?', at, itemId);
  }

  remove(itemId: string): void {
    this.db.run('DELETE FROM media_cache WHERE item_id = ?', itemId);
  }

  totalBytes(): number {
    return this.db.get<{ n: number | null }>('SELECT sum(bytes) AS n FROM media_cache')?.n ?? 0;
  }

  /** Least recently used first. */
  oldest(limit: number): CachedMedia[] {
    return this.db
      .all<CacheRow>('SELECT * FROM media_cache ORDER BY last_used_at, item_id LIMIT ?', limit)
      .map(toCached);
  }

  all(): CachedMedia[] {
    return this.db.all<CacheRow>('SELECT * FROM media_cache ORDER BY item_id').map(toCached);
  }
}

function toCached(row: CacheRow): CachedMedia {
  return {
    itemId: row.item_id,
    relPath: row.rel_path,
    bytes: row.bytes,
    mimeType: row.mime_type,
    storedAt: row.stored_at,
    lastUsedAt: row.last_used_at,
  };
}

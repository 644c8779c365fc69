// Opaque page cursors: base64url of a scope and a position key. A position names "items older
// than this one", so a cursor stays valid while new items are added at the head.
import { SimError } from './errors.ts';

export function encodeCursor(scope: string, position: number): string {
  return Buffer.from(`c1|${scope}|${position}`, 'utf8').toString('base64url');
}

/** The position inside the cursor; 400 INVALID_CURSOR when it is not one of ours for this scope. */
export function decodeCursor(scope: string, cursor: string): number {
  const invalid = new SimError(
    400,
    'INVALID_CURSOR',
    'cursor is invalid or belongs to another listing',
  );
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw invalid;
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (parts.length !== 3 || parts[0] !== 'c1' || parts[1] !== scope) throw invalid;
  const pos = Number(parts[2]);
  if (!/^\d+$/.test(parts[2] as string) || !Number.isSafeInteger(pos)) throw invalid;
  return pos;
}

/**
 * One page, newest first, of records keyed by a creation sequence: those strictly older than
 * the cursor's position, and the cursor of the next page when there is one.
 */
export function pageBySeq<T extends { seq: number }>(
  records: Iterable<T>,
  scope: string,
  cursor: string | undefined,
  limit: number,
): { page: T[]; nextCursor: string | null; hasMore: boolean } {
  const before = cursor ? decodeCursor(scope, cursor) : Number.MAX_SAFE_INTEGER;
  const all = [...records].filter((r) => r.seq < before).sort((a, b) => b.seq - a.seq);
  const page = all.slice(0, limit);
  const hasMore = all.length > limit;
  const last = page.at(-1);
  return { page, hasMore, nextCursor: hasMore && last ? encodeCursor(scope, last.seq) : null };
}

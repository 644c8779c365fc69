// A Library item as the service sent it → the row the store keeps. Every field is
// tolerated missing or of an unexpected type (kept in the raw record, stored as null);
// only an item without an ID cannot be mirrored. Unknown types and sources stay as sent.
// Hand-written rather than a zod schema: it runs once per item of million-item Libraries.
import type { LibraryItemInput } from '../store/index.ts';

/** The item normalized for the store, or null when it has no usable ID. */
export function toLibraryItem(raw: unknown): LibraryItemInput | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const item = raw as Record<string, unknown>;
  const id = item.id;
  if (typeof id !== 'string' || id.length === 0) return null;
  const type = text(item.type);
  return {
    id,
    type: type === null || type === '' ? 'unknown' : type,
    source: text(item.source),
    workspaceId: text(item.workspaceId),
    mimeType: text(item.mimeType),
    url: text(item.url),
    fileSize: count(item.fileSize),
    durationMs: count(item.durationMs),
    width: count(item.width),
    height: count(item.height),
    description: text(item.description),
    inLibrary: typeof item.inLibrary === 'boolean' ? item.inLibrary : null,
    addedToLibraryAt: text(item.addedToLibraryAt),
    generationId: text(item.generationId),
    createdAt: text(item.createdAt),
    raw,
  };
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

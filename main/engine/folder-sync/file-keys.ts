// The small vocabulary the folder sync shares between its parts: job kinds and their dedupe
// keys, the store row seen as the change detector's FileRecord, and the stat comparisons
// made against a row (the store keeps mtime in whole milliseconds).
import type { FileRecord } from '../folder-parts/file-record.ts';
import type { FileStat } from '../folder-parts/file-stat.ts';
import { areaOf, type Area } from '../folder-parts/folder-layout.ts';
import type { FileKind, LocalFile } from '../store/index.ts';

export const UPLOAD_KIND = 'folder-upload';
export const LOGO_KIND = 'folder-logo';
export const SCAN_KIND = 'folder-scan';

/** One upload job per brand and bytes: the same bytes never queue twice. */
export const uploadKey = (brandId: string, sha256: string): string =>
  `${UPLOAD_KIND}:${brandId}:${sha256}`;
/** One logo job per brand: it takes the newest logo file when it runs. */
export const logoKey = (brandId: string): string => `${LOGO_KIND}:${brandId}`;
export const scanKey = (brandId: string): string => `${SCAN_KIND}:${brandId}`;

/** Codes kept in a row's lastError for skips of our own (the classifier has the others). */
export const OLDER_LOGO = 'OLDER_LOGO';
export const UNREADABLE = 'UNREADABLE';

export function kindOfArea(area: Area): FileKind {
  return area === 'logo' ? 'logo' : 'image';
}

export function isLogoPath(relPath: string): boolean {
  return areaOf(relPath) === 'logo';
}

/** The row as the pure change detector reads it. */
export function toFileRecord(file: LocalFile): FileRecord {
  return {
    brandId: file.brandId,
    relPath: file.relPath,
    pathKey: file.pathKey,
    size: file.size,
    mtimeMs: file.mtimeMs,
    inode: file.inode === null ? null : Number(file.inode),
    sha256: file.sha256,
    kind: null,
    state: file.state,
    reason: file.reason,
    bytesSent: file.bytesSent,
    imageId: file.imageId,
    existing: file.existing,
  };
}

/** mtime as the store keeps it. */
export function storedMtime(stat: Pick<FileStat, 'mtimeMs'>): number {
  return Math.trunc(stat.mtimeMs);
}

/** The stat fields the row keeps, as decideOnStat compares them. */
export function observedOf(file: LocalFile | undefined, stat: FileStat) {
  return {
    pathKey: file?.pathKey ?? '',
    size: stat.size,
    mtimeMs: storedMtime(stat),
    ino: stat.ino || null,
  };
}

/** Size, mtime and inode (where both have one) are the row's. */
export function matchesRow(file: LocalFile, stat: FileStat): boolean {
  return (
    file.size === stat.size &&
    file.mtimeMs === storedMtime(stat) &&
    (file.inode === null || !stat.ino || file.inode === String(stat.ino))
  );
}

/** A pending row: its bytes are queued or being sent. */
export function isPending(file: Pick<LocalFile, 'state'>): boolean {
  return file.state === 'waiting' || file.state === 'uploading';
}

/** A failure that the next pass tries again (a transient one that ran out of attempts). */
export function willRetry(file: Pick<LocalFile, 'state' | 'nextRetryAt'>): boolean {
  return file.state === 'failed' && file.nextRetryAt !== null;
}

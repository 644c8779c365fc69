// What to do about a file, from what the index remembers of its brand: pure decisions, in
// two steps because hashing is the expensive part.
//   1. decideOnStat: a scanned or settled file against the record at its path: nothing
//      (same size, mtime and inode) or rehash.
//   2. decideOnHash: its sha256 against the brand's records with the same bytes: upload,
//      or nothing to upload because these bytes were uploaded already (a rename, a move or
//      a copy), are being uploaded, or were turned down.
// And decideMissing / decideUnlinked for files that are gone: the record says "deleted",
// and the user is told that nothing is deleted on the service.
// Decisions must be applied to the index one after another: the second of two identical
// files dropped together must see the first one's "waiting" record.
import { areaOf } from './folder-layout.ts';
import type { FileRecord } from './file-record.ts';

export interface ObservedFile {
  pathKey: string;
  size: number;
  mtimeMs: number;
  /** Inode number, 0 or null where there is none. */
  ino?: number | null;
}

export type StatDecision =
  | { action: 'nothing'; why: 'unchanged' }
  | {
      action: 'rehash';
      why: 'new' | 'size-changed' | 'mtime-changed' | 'inode-changed' | 'reappeared';
    };

export function decideOnStat(previous: FileRecord | undefined, file: ObservedFile): StatDecision {
  if (previous === undefined) return { action: 'rehash', why: 'new' };
  if (previous.state === 'deleted') return { action: 'rehash', why: 'reappeared' };
  if (previous.size !== file.size) return { action: 'rehash', why: 'size-changed' };
  if (previous.mtimeMs !== file.mtimeMs) return { action: 'rehash', why: 'mtime-changed' };
  // An atomic save may keep size and mtime (an editor preserving them): a new inode is a
  // new file. Filesystems without inodes report 0 or nothing: no evidence either way.
  if (previous.inode && file.ino && previous.inode !== file.ino) {
    return { action: 'rehash', why: 'inode-changed' };
  }
  // Whatever the state (a skip recorded without a hash included), the verdict holds until
  // the file changes.
  return { action: 'nothing', why: 'unchanged' };
}

export type HashDecision =
  | { action: 'upload' }
  /** These bytes are on the service already: record this path as uploaded, with source's imageId. */
  | { action: 'record-as-already-uploaded'; source: FileRecord }
  /**
   * The same bytes are queued or uploading: this path follows that outcome. The source may
   * be this path's own record (touched while queued): then only its stat is refreshed.
   */
  | { action: 'wait-for-pending'; source: FileRecord }
  /** The same bytes were turned down (skipped, or failed for good): same verdict, same reason. */
  | { action: 'record-as-skipped'; source: FileRecord };

export interface HashedFile {
  relPath: string;
  pathKey: string;
  sha256: string;
}

/** Whether a record stands for bytes that reached the service (even if deleted locally since). */
export function isOnService(r: FileRecord): boolean {
  return r.imageId !== null && (r.state === 'uploaded' || r.state === 'deleted');
}

/**
 * `sameBytes`: the brand's records with this sha256 (any path, this one included). Only
 * records for the same target count: bytes uploaded to the Library are not the logo.
 */
export function decideOnHash(file: HashedFile, sameBytes: readonly FileRecord[]): HashDecision {
  const target = areaOf(file.relPath);
  const candidates = sameBytes.filter(
    (r) => r.sha256 === file.sha256 && areaOf(r.relPath) === target,
  );
  // This path's own record first: a touched file keeps its own history.
  const byPreference = [...candidates].sort(
    (a, b) => Number(b.pathKey === file.pathKey) - Number(a.pathKey === file.pathKey),
  );
  const uploaded = byPreference.find(isOnService);
  if (uploaded) return { action: 'record-as-already-uploaded', source: uploaded };
  const pending = byPreference.find((r) => r.state === 'waiting' || r.state === 'uploading');
  if (pending) return { action: 'wait-for-pending', source: pending };
  const refused = byPreference.find((r) => r.state === 'skipped' || r.state === 'failed');
  if (refused) return { action: 'record-as-skipped', source: refused };
  return { action: 'upload' };
}

export const LOCAL_DELETE_NOTICE =
  'Deleted on this computer only: the service keeps its copy (it offers no way to delete an upload).';

export interface DeletedDecision {
  action: 'deleted';
  record: FileRecord;
  /** It was queued or uploading: the integrator cancels that upload. */
  wasPending: boolean;
  /** For the user: nothing was deleted on the service. */
  message: string;
}

/** A file the watcher saw disappear. */
export function decideUnlinked(record: FileRecord): DeletedDecision | null {
  if (record.state === 'deleted') return null;
  const wasPending = record.state === 'waiting' || record.state === 'uploading';
  return {
    action: 'deleted',
    record,
    wasPending,
    message: isOnService(record)
      ? LOCAL_DELETE_NOTICE
      : wasPending
        ? 'Deleted before it was uploaded: nothing was sent.'
        : 'Deleted; it had not been uploaded.',
  };
}

/** After a full scan of a brand: every record whose path the scan did not find is deleted. */
export function decideMissing(
  records: Iterable<FileRecord>,
  found: (pathKey: string) => boolean,
): DeletedDecision[] {
  const out: DeletedDecision[] = [];
  for (const record of records) {
    if (found(record.pathKey)) continue;
    const decision = decideUnlinked(record);
    if (decision) out.push(decision);
  }
  return out;
}

/**
 * The logo: the newest (by mtime) file in Logo/ that is uploaded or on its way. Ties go to
 * the path that sorts first, so the choice is stable.
 */
export function pickNewestLogo(records: Iterable<FileRecord>): FileRecord | undefined {
  let best: FileRecord | undefined;
  for (const r of records) {
    if (areaOf(r.relPath) !== 'logo') continue;
    if (r.state === 'skipped' || r.state === 'failed' || r.state === 'deleted') continue;
    if (
      best === undefined ||
      r.mtimeMs > best.mtimeMs ||
      (r.mtimeMs === best.mtimeMs && r.relPath < best.relPath)
    ) {
      best = r;
    }
  }
  return best;
}

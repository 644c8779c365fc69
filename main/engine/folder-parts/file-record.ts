// The shape of one row of the file index, as the folder sync reads it. The store's files
// table (main/engine/store/) holds these columns; this interface is what the change
// detector needs of it, so that it stays pure and testable without SQLite.

export type FileState = 'waiting' | 'uploading' | 'uploaded' | 'skipped' | 'failed' | 'deleted';

export interface FileRecord {
  brandId: string;
  /** Path inside the brand folder, NFC, '/' separators. */
  relPath: string;
  /** relPath as the disk compares it (case-folded on case-insensitive disks). */
  pathKey: string;
  size: number;
  mtimeMs: number;
  /** Inode number where the filesystem has one. */
  inode: number | null;
  sha256: string | null;
  /** Accepted kind (png, jpeg, webp, avif, svg), when classified. */
  kind: string | null;
  state: FileState;
  /** Why the file was skipped or failed, in words for the user. */
  reason: string | null;
  bytesSent: number;
  /** The service's image ID once uploaded (kept after a local delete). */
  imageId: string | null;
  /** The service said these bytes already existed in the brand. */
  existing: boolean | null;
}

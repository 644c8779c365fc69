// The local file index of the brand folders, and the record of which bytes each brand
// already holds on the service (so a rename or a copy uploads nothing).
import type { Db, SqlParam } from './db.ts';
import { StoreError } from './store-error.ts';
import { fromNullableFlag, toFlag } from './sql-values.ts';
import { normalizeRelPath, pathKey } from './path-key.ts';
import { pageLimit, requireCount, requireId, requireOneOf } from './arguments.ts';

export const fileKinds = ['image', 'logo'] as const;
export type FileKind = (typeof fileKinds)[number];
export const fileStates = [
  'waiting',
  'uploading',
  'uploaded',
  'skipped',
  'failed',
  'deleted',
] as const;
export type FileState = (typeof fileStates)[number];

export interface LocalFile {
  id: number;
  brandId: string;
  relPath: string;
  pathKey: string;
  size: number;
  mtimeMs: number;
  inode: string | null;
  sha256: string | null;
  kind: FileKind;
  state: FileState;
  reason: string | null;
  bytesSent: number;
  imageId: string | null;
  existing: boolean | null;
  attempts: number;
  nextRetryAt: number | null;
  lastError: string | null;
  firstSeenAt: number;
  updatedAt: number;
}

export interface FileObservation {
  brandId: string;
  relPath: string;
  size: number;
  mtimeMs: number;
  inode?: string | number | bigint | null;
  kind: FileKind;
  /**
   * The hash of the bytes seen with this stat, when the caller has it: a new or changed row
   * is written with it at once (one write instead of two). An unchanged row keeps its own.
   */
  sha256?: string;
}

/** new: first sighting; changed: other size/mtime/inode (a new upload); unchanged; reappeared: was deleted. */
export type FileChange = 'new' | 'changed' | 'unchanged' | 'reappeared';

export interface UploadRecord {
  brandId: string;
  sha256: string;
  kind: FileKind;
  imageId: string | null;
  existing: boolean;
  size: number;
  uploadedAt: number;
}

/** Fields a state change may set; absent fields keep their value. */
export interface FileStatePatch {
  reason?: string | null;
  bytesSent?: number;
  imageId?: string | null;
  existing?: boolean | null;
  attempts?: number;
  nextRetryAt?: number | null;
  lastError?: string | null;
}

interface FileRow {
  id: number;
  brand_id: string;
  rel_path: string;
  path_key: string;
  size: number;
  mtime_ms: number;
  inode: string | null;
  sha256: string | null;
  kind: FileKind;
  state: FileState;
  reason: string | null;
  bytes_sent: number;
  image_id: string | null;
  existing: number | null;
  attempts: number;
  next_retry_at: number | null;
  last_error: string | null;
  first_seen_at: number;
  updated_at: number;
}

interface UploadRow {
  brand_id: string;
  sha256: string;
  kind: FileKind;
  image_id: string | null;
  existing: number;
  size: number;
  uploaded_at: number;
}

const sha256Pattern = /^[0-9a-f]{64}$/;

function requireSha256(sha256: string): void {
  if (!sha256Pattern.test(sha256)) {
    throw new StoreError(
      'INVALID_ARGUMENT',
      `A sha256 must be 64 lowercase hex digits (got "${sha256}").`,
    );
  }
}

export class FilesRepo {
  private readonly db: Db;
  private readonly now: () => number;
  /** Who wants to hear that a brand's files changed (a window showing them); usually nobody. */
  private readonly listeners = new Set<(brandId: string) => void>();

  constructor(db: Db, now: () => number) {
    this.db = db;
    this.now = now;
  }

  /**
   * Records what a scan saw. A file whose size, mtime or inode differ from the stored ones
   * changed in place: its hash and upload state are reset (it is a new upload).
   */
  observe(input: FileObservation): { file: LocalFile; change: FileChange } {
    requireId(input.brandId, 'brand');
    requireCount(input.size, 'File size');
    if (!Number.isFinite(input.mtimeMs)) {
      throw new StoreError(
        'INVALID_ARGUMENT',
        `File mtime must be a number of milliseconds (got ${input.mtimeMs}).`,
      );
    }
    requireOneOf(input.kind, fileKinds, 'File kind');
    if (input.sha256 !== undefined) requireSha256(input.sha256);
    const relPath = normalizeRelPath(input.relPath);
    const key = pathKey(relPath);
    const inode = input.inode === undefined || input.inode === null ? null : String(input.inode);
    const mtimeMs = Math.trunc(input.mtimeMs);
    const observed = this.observeRow(input, relPath, key, inode, mtimeMs);
    if (observed.change !== 'unchanged') this.changed(input.brandId);
    return observed;
  }

  private observeRow(
    input: FileObservation,
    relPath: string,
    key: string,
    inode: string | null,
    mtimeMs: number,
  ): { file: LocalFile; change: FileChange } {
    return this.db.tx(() => {
      const at = this.now();
      const old = this.db.get<FileRow>(
        'SELECT * FROM files WHERE brand_id = ? AND path_key = ?',
        input.brandId,
        key,
      );
      if (old === undefined) {
        const row = this.db.runGet<FileRow>(
          `INSERT INTO files (brand_id, rel_path, path_key, size, mtime_ms, inode, kind, sha256, state, first_seen_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'waiting', ?, ?) RETURNING *`,
          input.brandId,
          relPath,
          key,
          input.size,
          mtimeMs,
          inode,
          input.kind,
          input.sha256 ?? null,
          at,
          at,
        );
        return { file: toFile(row as FileRow), change: 'new' as const };
      }
      const same =
        old.size === input.size &&
        old.mtime_ms === mtimeMs &&
        old.kind === input.kind &&
        (old.inode === null || inode === null || old.inode === inode);
      if (same && old.state !== 'deleted') {
        if (old.rel_path === relPath && (old.inode !== null || inode === null)) {
          return { file: toFile(old), change: 'unchanged' as const };
        }
        const row = this.db.runGet<FileRow>(
          'UPDATE files SET rel_path = ?, inode = coalesce(?, inode), updated_at = ? WHERE id = ? RETURNING *',
          relPath,
          inode,
          at,
          old.id,
        );
        return { file: toFile(row as FileRow), change: 'unchanged' as const };
      }
      const row = this.db.runGet<FileRow>(
        `UPDATE files SET rel_path = ?, size = ?, mtime_ms = ?, inode = ?, kind = ?, sha256 = ?,
           state = 'waiting', reason = NULL, bytes_sent = 0, image_id = NULL, existing = NULL, attempts = 0,
           next_retry_at = NULL, last_error = NULL, updated_at = ?
         WHERE id = ? RETURNING *`,
        relPath,
        input.size,
        mtimeMs,
        inode,
        input.kind,
        input.sha256 ?? null,
        at,
        old.id,
      );
      return {
        file: toFile(row as FileRow),
        change: old.state === 'deleted' ? 'reappeared' : 'changed',
      };
    });
  }

  /** Calls fn with the brand ID after a file of that brand was added or changed state. */
  onChange(fn: (brandId: string) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(brandId: string): void {
    for (const fn of this.listeners) fn(brandId);
  }

  get(id: number): LocalFile | undefined {
    const row = this.db.get<FileRow>('SELECT * FROM files WHERE id = ?', id);
    return row === undefined ? undefined : toFile(row);
  }

  getByPath(brandId: string, relPath: string): LocalFile | undefined {
    const row = this.db.get<FileRow>(
      'SELECT * FROM files WHERE brand_id = ? AND path_key = ?',
      brandId,
      pathKey(relPath),
    );
    return row === undefined ? undefined : toFile(row);
  }

  /** Files of the brand holding these bytes (for "same bytes upload once per brand"). */
  findBySha(brandId: string, sha256: string): LocalFile[] {
    // Sorted here: an ORDER BY makes SQLite set up a sorter, several times the cost of
    // this lookup (which runs a few times per upload) for the one or two rows it finds.
    return this.db
      .all<FileRow>('SELECT * FROM files WHERE brand_id = ? AND sha256 = ?', brandId, sha256)
      .sort((a, b) => a.id - b.id)
      .map(toFile);
  }

  setHash(id: number, sha256: string): LocalFile {
    requireSha256(sha256);
    return this.update('sha256 = ?', [sha256], id);
  }

  setState(id: number, state: FileState, patch: FileStatePatch = {}): LocalFile {
    requireOneOf(state, fileStates, 'File state');
    const sets = ['state = ?'];
    const params: SqlParam[] = [state];
    const add = (column: string, value: SqlParam): void => {
      sets.push(`${column} = ?`);
      params.push(value);
    };
    if (patch.reason !== undefined) add('reason', patch.reason);
    if (patch.bytesSent !== undefined) {
      requireCount(patch.bytesSent, 'bytesSent');
      add('bytes_sent', patch.bytesSent);
    }
    if (patch.imageId !== undefined) add('image_id', patch.imageId);
    if (patch.existing !== undefined)
      add('existing', patch.existing === null ? null : toFlag(patch.existing));
    if (patch.attempts !== undefined) {
      requireCount(patch.attempts, 'attempts');
      add('attempts', patch.attempts);
    }
    if (patch.nextRetryAt !== undefined) add('next_retry_at', patch.nextRetryAt);
    if (patch.lastError !== undefined) add('last_error', patch.lastError);
    return this.update(sets.join(', '), params, id);
  }

  /** The upload succeeded: the file and the brand's record of its bytes change together. */
  markUploaded(id: number, result: { imageId: string | null; existing: boolean }): LocalFile {
    return this.db.tx(() => {
      const file = this.get(id);
      if (file === undefined) throw new StoreError('NOT_FOUND', `No file ${id} in the index.`);
      if (file.sha256 === null) {
        throw new StoreError(
          'INVALID_ARGUMENT',
          `File ${file.relPath} cannot be marked uploaded before it is hashed.`,
        );
      }
      this.recordUpload({
        brandId: file.brandId,
        sha256: file.sha256,
        kind: file.kind,
        imageId: result.imageId,
        existing: result.existing,
        size: file.size,
      });
      return this.setState(id, 'uploaded', {
        imageId: result.imageId,
        existing: result.existing,
        bytesSent: file.size,
        reason: null,
        lastError: null,
        nextRetryAt: null,
      });
    });
  }

  recordUpload(upload: Omit<UploadRecord, 'uploadedAt'> & { uploadedAt?: number }): void {
    requireId(upload.brandId, 'brand');
    requireSha256(upload.sha256);
    this.db.run(
      `INSERT INTO uploads (brand_id, sha256, kind, image_id, existing, size, uploaded_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(brand_id, sha256, kind) DO UPDATE SET image_id = coalesce(excluded.image_id, image_id)`,
      upload.brandId,
      upload.sha256,
      upload.kind,
      upload.imageId,
      toFlag(upload.existing),
      upload.size,
      upload.uploadedAt ?? this.now(),
    );
  }

  /** Whether these bytes were already uploaded to this brand (and as what). */
  uploadOf(brandId: string, sha256: string, kind: FileKind = 'image'): UploadRecord | undefined {
    const row = this.db.get<UploadRow>(
      'SELECT * FROM uploads WHERE brand_id = ? AND sha256 = ? AND kind = ?',
      brandId,
      sha256,
      kind,
    );
    return row === undefined
      ? undefined
      : {
          brandId: row.brand_id,
          sha256: row.sha256,
          kind: row.kind,
          imageId: row.image_id,
          existing: row.existing === 1,
          size: row.size,
          uploadedAt: row.uploaded_at,
        };
  }

  /** A move inside the brand folder: same row, new path (nothing to upload). */
  rename(id: number, newRelPath: string): LocalFile {
    const relPath = normalizeRelPath(newRelPath);
    const file = this.get(id);
    if (file === undefined) throw new StoreError('NOT_FOUND', `No file ${id} in the index.`);
    const taken = this.getByPath(file.brandId, relPath);
    if (taken !== undefined && taken.id !== id) {
      throw new StoreError(
        'INVALID_ARGUMENT',
        `Cannot rename to "${relPath}": another indexed file has that path.`,
      );
    }
    return this.update('rel_path = ?, path_key = ?', [relPath, pathKey(relPath)], id);
  }

  markDeleted(id: number): LocalFile {
    return this.setState(id, 'deleted');
  }

  remove(id: number): boolean {
    return this.db.run('DELETE FROM files WHERE id = ?', id).changes > 0;
  }

  /** Paged by id (stable under inserts); pass the last id as afterId for the next page. */
  list(
    options: { brandId?: string; state?: FileState; afterId?: number; limit?: number } = {},
  ): LocalFile[] {
    const limit = pageLimit(options.limit, 500, 10_000);
    if (options.state !== undefined) requireOneOf(options.state, fileStates, 'File state');
    // One statement per filter combination, so each can use its index.
    const where = ['id > @after'];
    if (options.brandId !== undefined) where.push('brand_id = @brand');
    if (options.state !== undefined) where.push('state = @state');
    return this.db
      .all<FileRow>(`SELECT * FROM files WHERE ${where.join(' AND ')} ORDER BY id LIMIT @limit`, {
        after: options.afterId ?? 0,
        limit,
        ...(options.brandId === undefined ? {} : { brand: options.brandId }),
        ...(options.state === undefined ? {} : { state: options.state }),
      })
      .map(toFile);
  }

  countsByState(brandId?: string): Record<FileState, number> {
    const counts = Object.fromEntries(fileStates.map((s) => [s, 0])) as Record<FileState, number>;
    const rows =
      brandId === undefined
        ? this.db.all<{ state: FileState; n: number }>(
            'SELECT state, count(*) AS n FROM files GROUP BY state',
          )
        : this.db.all<{ state: FileState; n: number }>(
            'SELECT state, count(*) AS n FROM files WHERE brand_id = ? GROUP BY state',
            brandId,
          );
    for (const row of rows) counts[row.state] = row.n;
    return counts;
  }

  private update(sets: string, params: SqlParam[], id: number): LocalFile {
    const row = this.db.runGet<FileRow>(
      `UPDATE files SET ${sets}, updated_at = ? WHERE id = ? RETURNING *`,
      ...params,
      this.now(),
      id,
    );
    if (row === undefined) throw new StoreError('NOT_FOUND', `No file ${id} in the index.`);
    this.changed(row.brand_id);
    return toFile(row);
  }
}

function toFile(row: FileRow): LocalFile {
  return {
    id: row.id,
    brandId: row.brand_id,
    relPath: row.rel_path,
    pathKey: row.path_key,
    size: row.size,
    mtimeMs: row.mtime_ms,
    inode: row.inode,
    sha256: row.sha256,
    kind: row.kind,
    state: row.state,
    reason: row.reason,
    bytesSent: row.bytes_sent,
    imageId: row.image_id,
    existing: fromNullableFlag(row.existing),
    attempts: row.attempts,
    nextRetryAt: row.next_retry_at,
    lastError: row.last_error,
    firstSeenAt: row.first_seen_at,
    updatedAt: row.updated_at,
  };
}

// Typed failures of the folder layer. Expected per-file outcomes (unsupported, locked,
// vanished…) are values in each module's result union; FolderError is thrown only for
// what the caller cannot go on with (a missing root, a bad brand ID, a marker not written).

export type FolderErrorCode =
  | 'ROOT_MISSING' // the sync root does not exist or is not a directory
  | 'ROOT_NOT_WRITABLE' // a probe or a brand folder cannot be created in the root
  | 'INVALID_BRAND_ID' // a brand ID that is not a UUID
  | 'MARKER_WRITE_FAILED' // the marker file could not be written
  | 'FOLDER_CREATE_FAILED' // no brand folder could be created
  | 'HASHER_CLOSED' // a hash was asked of a HasherPool after close()
  | 'HASHER_CRASHED'; // a hasher thread died (its files are not lost: hash them again)

export class FolderError extends Error {
  readonly code: FolderErrorCode;
  readonly path: string | undefined;

  constructor(
    code: FolderErrorCode,
    message: string,
    opts: { path?: string; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'FolderError';
    this.code = code;
    this.path = opts.path;
  }
}

/** The errno code of a Node fs error (`ENOENT`, `EACCES`…), if it has one. */
export function errnoCode(error: unknown): string | undefined {
  if (error !== null && typeof error === 'object' && 'code' in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/**
 * What an I/O error on one file means for sync:
 * - gone: the file vanished (a later unlink event or rescan says so);
 * - locked: another program holds it (Windows sharing violation, busy): retry with backoff;
 * - unreadable: permission denied: record with the reason, retry only when the file changes;
 * - failed: anything else (I/O error): recorded like unreadable, with the code.
 */
export type IoFailureKind = 'gone' | 'locked' | 'unreadable' | 'failed';

export interface IoFailure {
  kind: IoFailureKind;
  code: string;
  reason: string;
}

export function ioFailure(error: unknown, platform: NodeJS.Platform = process.platform): IoFailure {
  const code = errnoCode(error) ?? 'EUNKNOWN';
  const detail = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return { kind: 'gone', code, reason: 'The file is no longer there' };
    case 'EBUSY':
    case 'ETXTBSY':
    case 'EAGAIN':
      return { kind: 'locked', code, reason: `Another program is using the file (${code})` };
    case 'EPERM':
      // On Windows a file opened by another program without sharing answers EPERM.
      if (platform === 'win32') {
        return { kind: 'locked', code, reason: 'Another program is using the file (EPERM)' };
      }
      return {
        kind: 'unreadable',
        code,
        reason: 'The file cannot be read: operation not permitted (EPERM)',
      };
    case 'EACCES':
      return {
        kind: 'unreadable',
        code,
        reason: 'The file cannot be read: permission denied (EACCES)',
      };
    default:
      return { kind: 'failed', code, reason: `The file cannot be read: ${detail}` };
  }
}

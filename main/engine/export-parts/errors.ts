// Typed failures of putting a Brand Skill export on disk. The engine branches on `code`;
// the message names the offending entry so that a user or a log reader can act on it.

/** Why an archive was rejected as a whole. None of these is retryable with the same file. */
export type ArchiveErrorCode =
  | 'ZIP_SLIP' // a `..` segment would climb out of the folder
  | 'ABSOLUTE_PATH' // starts with `/`
  | 'DRIVE_LETTER' // starts with `C:` and the like
  | 'BACKSLASH' // `\` is a separator on Windows and a plain character elsewhere
  | 'SYMLINK' // a symbolic link or a Windows reparse point
  | 'UNSUPPORTED_ENTRY' // encrypted, an unknown compression method, a device or FIFO
  | 'INVALID_NAME' // empty, `.` segment, control or Windows-forbidden character, too long
  | 'RESERVED_NAME' // CON, NUL, COM1…, a trailing dot or space, or our own manifest name
  | 'DUPLICATE_ENTRY' // the same path twice, or a path that is both a file and a folder
  | 'CASE_COLLISION' // two paths that are one on a case- or normalisation-insensitive disk
  | 'TOO_MANY_ENTRIES'
  | 'TOO_LARGE' // declared expanded bytes above the limit (zip bomb)
  | 'TRUNCATED' // the file ends before the archive does
  | 'LENGTH_MISMATCH' // data longer or shorter than its header (or the file than expected)
  | 'CRC_MISMATCH'
  | 'CORRUPT'; // anything else the ZIP reader refuses

export class ArchiveError extends Error {
  readonly code: ArchiveErrorCode;
  /** The entry name as found in the archive, when one entry is to blame. */
  readonly entry: string | undefined;

  constructor(code: ArchiveErrorCode, message: string, entry?: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ArchiveError';
    this.code = code;
    this.entry = entry;
  }
}

/** Why an install did not happen (the archive itself may be fine). */
export type SkillInstallErrorCode =
  | 'INVALID_SKILL_ID' // not a plain ID: it becomes a folder name
  | 'NO_SPACE' // the disk cannot hold the expanded archive next to the current copy
  | 'ABORTED'
  | 'SWAP_FAILED'; // the folder could not be moved (held open, permissions); the old copy stays

export class SkillInstallError extends Error {
  readonly code: SkillInstallErrorCode;

  constructor(code: SkillInstallErrorCode, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'SkillInstallError';
    this.code = code;
  }
}

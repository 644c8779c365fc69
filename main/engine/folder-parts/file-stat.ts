// The few stat fields the folder sync compares, taken from fs.Stats in one place.
import { constants, statSync, type Stats } from 'node:fs';

export interface FileStat {
  size: number;
  mtimeMs: number;
  /** Change time: any write or rename touches it, and no copy tool can preserve it. */
  ctimeMs: number;
  /** Inode number where the filesystem has one (0 otherwise). */
  ino: number;
  dev: number;
}

/** The path's stat now (links followed); undefined when it is missing or cannot be read. */
export function statNow(absPath: string): Stats | undefined {
  try {
    return statSync(absPath, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

export function toFileStat(s: Stats): FileStat {
  return { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino, dev: s.dev };
}

/** Same content as far as stat can tell: size, mtime, ctime and inode unchanged. */
export function sameFileStat(a: FileStat, b: FileStat): boolean {
  return (
    a.size === b.size &&
    a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs &&
    a.ino === b.ino &&
    a.dev === b.dev
  );
}

// How the folder layer opens a file to read it. O_NONBLOCK: a FIFO left in a brand folder
// must not hang the engine on open (regular files ignore the flag).
export const READ_FLAGS =
  process.platform === 'win32' ? constants.O_RDONLY : constants.O_RDONLY | constants.O_NONBLOCK;

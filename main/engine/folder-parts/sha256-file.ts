// Hashes one file synchronously, for the hasher workers (a worker thread has nothing else
// to do, and sync calls skip the thread-pool round trip of each async read). The stat is
// taken before and after, on the open file and on the path: a file written to or replaced
// while it was read gives "changed", never a hash that belongs to no version of it.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { ioFailure } from './folder-errors.ts';
import { READ_FLAGS, sameFileStat, toFileStat, type FileStat } from './file-stat.ts';
import type { WholeFileBuffer } from './whole-file-buffer.ts';

export type HashResult =
  /**
   * `bytes`: the whole file, when the caller asked to keep files up to its size; a view of
   * the caller's WholeFileBuffer when it gave one (valid until that buffer's next take()).
   */
  | { status: 'hashed'; sha256: string; stat: FileStat; bytes?: Buffer }
  // Written to or replaced while it was read: take it again once it is stable.
  | { status: 'changed'; reason: string }
  | { status: 'gone' }
  // Another program holds it: retry with a backoff.
  | { status: 'locked'; code: string; reason: string }
  // Permission denied or an I/O error: record the reason.
  | { status: 'unreadable'; code: string; reason: string }
  | { status: 'not-a-file' };

function fromIoError(error: unknown): HashResult {
  const failure = ioFailure(error);
  if (failure.kind === 'gone') return { status: 'gone' };
  if (failure.kind === 'locked')
    return { status: 'locked', code: failure.code, reason: failure.reason };
  return { status: 'unreadable', code: failure.code, reason: failure.reason };
}

/** Keep a file of at most `upTo` bytes whole, read into `into` (else a buffer of its own). */
export interface KeepWhole {
  upTo: number;
  into?: WholeFileBuffer;
}

/**
 * sha256 of the file at `absPath`, read through `buffer` (big reads: fewer syscalls), or
 * whole, the bytes coming back with the hash, when `keep` asks for a file of its size (so
 * that its bytes can be judged without reading them again).
 * `afterRead` runs after each read: tests use it to change the file mid-hash.
 */
export function sha256FileSync(
  absPath: string,
  buffer: Buffer,
  afterRead?: (position: number) => void,
  keep?: KeepWhole,
): HashResult {
  let fd: number;
  try {
    fd = openSync(absPath, READ_FLAGS);
  } catch (error) {
    return fromIoError(error);
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) return { status: 'not-a-file' };
    const before = toFileStat(opened);
    const hash = createHash('sha256');
    const kept =
      keep === undefined || before.size > keep.upTo
        ? null
        : (keep.into?.take(before.size) ?? Buffer.allocUnsafe(before.size));
    let position = 0;
    // Read exactly the size seen at open: growth shows up in the second stat.
    while (position < before.size) {
      const n =
        kept === null
          ? readSync(fd, buffer, 0, Math.min(buffer.length, before.size - position), position)
          : readSync(fd, kept, position, before.size - position, position);
      if (n === 0) break;
      if (kept === null) hash.update(n === buffer.length ? buffer : buffer.subarray(0, n));
      position += n;
      afterRead?.(position);
    }
    if (kept !== null) hash.update(kept.subarray(0, position));
    const after = toFileStat(fstatSync(fd));
    const atPath = statSync(absPath, { throwIfNoEntry: false });
    if (position !== before.size || !sameFileStat(before, after)) {
      return { status: 'changed', reason: 'The file was written to while it was hashed' };
    }
    if (atPath === undefined || !sameFileStat(after, toFileStat(atPath))) {
      return { status: 'changed', reason: 'The file was replaced while it was hashed' };
    }
    const sha256 = hash.digest('hex');
    return kept === null
      ? { status: 'hashed', sha256, stat: before }
      : { status: 'hashed', sha256, stat: before, bytes: kept };
  } catch (error) {
    return fromIoError(error);
  } finally {
    closeSync(fd);
  }
}

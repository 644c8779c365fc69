// File operations that survive a crash or power loss at any moment: data is on disk before
// a rename publishes it, and a rename is on disk before the next step depends on it.
import { open, rename, rm, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

const onWindows = process.platform === 'win32';

function errorCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

/** Whether an error is "no such file or folder". */
export function isMissing(err: unknown): boolean {
  return errorCode(err) === 'ENOENT';
}

/**
 * Flushes a folder's entries (new names, renames) to disk. Windows cannot open a folder for
 * fsync and journals its metadata itself, so there the call is a no-op.
 */
export async function fsyncDir(dir: string): Promise<void> {
  if (onWindows) return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes the whole buffer: a positional write may be short. */
export async function writeAll(handle: FileHandle, data: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    offset += bytesWritten;
  }
}

/**
 * Replaces a small file so that a reader sees the old or the new content, never a part: a
 * temp file beside it (named by `tempPrefix`, so that a watcher of the folder can ignore
 * it), flushed, renamed over, and the directory entry flushed. The one atomic write of the
 * engine (brand markers, the Skill journal).
 */
export async function writeFileAtomic(
  file: string,
  content: string,
  options: { tempPrefix?: string } = {},
): Promise<void> {
  const dir = path.dirname(file);
  const prefix = options.tempPrefix ?? `.${path.basename(file)}.`;
  const temp = path.join(dir, `${prefix}${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o644);
  try {
    await writeAll(handle, Buffer.from(content));
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await fsyncDir(dir);
}

// Windows answers EPERM/EBUSY/EACCES while an indexer, an antivirus or Explorer holds a
// file inside the folder for a moment; elsewhere these errors are final.
const TRANSIENT_ON_WINDOWS = new Set(['EPERM', 'EBUSY', 'EACCES']);
const RENAME_ATTEMPTS = 8;

/** Renames, retrying for about two seconds the failures Windows gives while a file is held. */
export async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await rename(from, to);
      return;
    } catch (err) {
      const code = errorCode(err);
      const transient = onWindows && code !== undefined && TRANSIENT_ON_WINDOWS.has(code);
      if (!transient || attempt >= RENAME_ATTEMPTS) throw err;
      await new Promise((resolve) => setTimeout(resolve, 15 * 2 ** attempt));
    }
  }
}

/** Removes a file or folder tree; gone already is fine. */
export async function removeTree(target: string): Promise<void> {
  await rm(target, { recursive: true, force: true, maxRetries: onWindows ? 5 : 0 });
}

/** Writes a small file in one go (not atomic; for files inside a folder published later). */
export async function writeFileDurable(file: string, content: string): Promise<void> {
  await writeFile(file, content, { mode: 0o644, flush: true });
}

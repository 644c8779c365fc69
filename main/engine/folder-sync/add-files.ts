// Files dropped onto the window go into the brand's folder, which stays the source of truth:
// the folder sync finds them there and uploads them like any other file. Each is written under
// the engine's temp prefix (never picked up half-written), then linked to a free name: an
// existing file is never replaced ("shelf.png" becomes "shelf (2).png"). Only what the Library
// takes gets in: the bytes are judged (magic numbers, structure) before anything is written, so
// a dropped notes.txt is refused with its name and the reason rather than copied and ignored.
import { randomBytes } from 'node:crypto';
import { link, open, unlink } from 'node:fs/promises';
import path from 'node:path';
import { ENGINE_TEMP_PREFIX } from '../folder-parts/folder-layout.ts';
import { MAX_UPLOAD_BYTES } from '../api/assumed.ts';
import { CodedError } from '../core/coded-error.ts';
import { classifyBytes } from '../folder-parts/file-classifier.ts';

export type AddFileErrorCode = 'INVALID_NAME' | 'FILE_TOO_LARGE' | 'NOT_AN_IMAGE';

export class AddFileError extends CodedError<AddFileErrorCode> {}

/** A plain file name: no folder part, nothing hidden or reserved for the engine. */
export function checkDroppedName(name: string): string {
  const clean = name.normalize('NFC').trim();
  if (
    clean === '' ||
    clean.length > 255 ||
    clean !== path.basename(clean) ||
    clean.includes('/') ||
    clean.includes('\\') ||
    clean.includes('\0') ||
    clean.startsWith('.')
  ) {
    throw new AddFileError('INVALID_NAME', `"${name}" cannot be a file name in a brand folder.`);
  }
  return clean;
}

/**
 * A dropped file's name and bytes as the brand folder's Library takes them; throws an
 * AddFileError naming the file and why otherwise. Returns the clean name.
 */
export async function checkDroppedFile(name: string, bytes: Uint8Array): Promise<string> {
  const clean = checkDroppedName(name);
  if (bytes.byteLength > MAX_UPLOAD_BYTES) {
    throw new AddFileError(
      'FILE_TOO_LARGE',
      `${clean} is ${(bytes.byteLength / 1e6).toFixed(1)} MB; the service takes images up to ${MAX_UPLOAD_BYTES / 1e6} MB.`,
    );
  }
  const verdict = await classifyBytes(bytes, 'library-upload');
  if (verdict.status === 'skipped') {
    throw new AddFileError('NOT_AN_IMAGE', `${clean} was not added: ${verdict.reason}.`);
  }
  return clean;
}

/** Writes `bytes` into `dir` under `name` or the first free "name (n)"; returns the name used. */
export async function addFileToFolder(
  dir: string,
  name: string,
  bytes: Uint8Array,
): Promise<string> {
  const clean = await checkDroppedFile(name, bytes);
  const temp = path.join(dir, `${ENGINE_TEMP_PREFIX}drop-${randomBytes(6).toString('hex')}`);
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    const ext = path.extname(clean);
    const stem = clean.slice(0, clean.length - ext.length);
    for (let n = 1; n < 1000; n++) {
      const candidate = n === 1 ? clean : `${stem} (${n})${ext}`;
      try {
        // link() fails on an existing name: no check-then-write race with the user.
        await link(temp, path.join(dir, candidate));
        return candidate;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    throw new AddFileError('INVALID_NAME', `No free name for ${clean} in this folder.`);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

// Whether an entry name is a safe relative path on every OS the folder may be synced to or
// copied to, and whether two names would land on the same file there. Pure: no disk access.
import { ArchiveError } from './errors.ts';

export interface EntryPath {
  /** The path as written in the archive, without the trailing `/` of a folder entry. */
  path: string;
  segments: string[];
  isDir: boolean;
}

/** Names the folder itself must keep free (the install writes them). */
export interface NamePolicy {
  reservedRootNames: readonly string[];
}

// Windows refuses these whatever the extension (`CON.txt` too), in any case. The
// superscript digits are device names as well since Windows 10.
const WINDOWS_DEVICE = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i;
// Characters Windows forbids in a name; `\` and `/` are handled as separators before this.
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;
// C0 and C1 control characters and DEL: invisible, and some filesystems refuse them.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// Bidirectional controls (embeddings, overrides, isolates, marks): invisible, they reorder
// what a name shows, so `a\u202Egnp.exe` reads as "aexe.png" in a file manager.
const BIDI_CONTROLS = '\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c';
const BIDI_CONTROL = new RegExp(`[${BIDI_CONTROLS}]`);
const BIDI_CONTROL_ALL = new RegExp(`[${BIDI_CONTROLS}]`, 'g');
const MAX_SEGMENT_BYTES = 255;

const codePoint = (char: string): string =>
  (char.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');

/** Shows a name with its invisible characters escaped, for error messages. */
export function quoteName(name: string): string {
  // JSON escapes C0 controls only; a bidi control left raw would reorder the message itself.
  return JSON.stringify(name).replace(BIDI_CONTROL_ALL, (c) => `\\u${codePoint(c)}`);
}

/** Splits and checks one entry name; throws an ArchiveError naming the entry. */
export function parseEntryName(name: string, policy: NamePolicy): EntryPath {
  const q = quoteName(name);
  const fail = (code: ArchiveError['code'], why: string): never => {
    throw new ArchiveError(code, `entry ${q}: ${why}`, name);
  };
  if (name.length === 0) fail('INVALID_NAME', 'empty name');
  if (CONTROL.test(name)) fail('INVALID_NAME', 'the name holds a control character');
  const bidi = BIDI_CONTROL.exec(name);
  if (bidi !== null) {
    fail(
      'INVALID_NAME',
      `the name holds the bidirectional control character U+${codePoint(bidi[0])}, which makes it read as another name`,
    );
  }
  if (/^[a-zA-Z]:/.test(name)) fail('DRIVE_LETTER', 'path starts with a drive letter');
  if (name.includes('\\')) fail('BACKSLASH', 'backslash in the name (a separator on Windows)');
  if (name.startsWith('/')) fail('ABSOLUTE_PATH', 'absolute path');

  const isDir = name.endsWith('/');
  const segments = (isDir ? name.slice(0, -1) : name).split('/');
  if (segments.includes('..')) fail('ZIP_SLIP', 'a ".." segment would leave the folder');
  for (const segment of segments) {
    // `a//b` and `a/./b` are the same file as `a/b` to the OS but not to a duplicate check.
    if (segment === '' || segment === '.') fail('INVALID_NAME', 'empty or "." path segment');
    if (WINDOWS_FORBIDDEN.test(segment)) {
      fail('INVALID_NAME', `segment ${quoteName(segment)} holds a character Windows forbids`);
    }
    if (WINDOWS_DEVICE.test(segment)) {
      fail('RESERVED_NAME', `segment ${quoteName(segment)} is a reserved device name on Windows`);
    }
    if (/[. ]$/.test(segment)) {
      fail(
        'RESERVED_NAME',
        `segment ${quoteName(segment)} ends with a dot or space (Windows drops it)`,
      );
    }
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) {
      fail('INVALID_NAME', `segment longer than ${MAX_SEGMENT_BYTES} bytes`);
    }
  }
  const first = segments[0] as string;
  if (segments.length === 1 && !isDir && policy.reservedRootNames.includes(foldName(first))) {
    fail('RESERVED_NAME', 'the name is reserved for Brand Sync itself');
  }
  return { path: segments.join('/'), segments, isDir };
}

/** The key under which a case-insensitive, normalisation-insensitive disk files a name. */
export function foldName(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

interface Known {
  path: string;
  isDir: boolean;
  /** Named by an entry of its own (not only implied by a longer path). */
  explicit: boolean;
}

/**
 * Remembers every path an archive creates, folders implied by longer names included, and
 * rejects the second of two names that would be one file on some disk.
 */
export class PathTable {
  readonly #known = new Map<string, Known>();

  add(entry: EntryPath, rawName: string): void {
    const { segments } = entry;
    for (let i = 1; i <= segments.length; i++) {
      const last = i === segments.length;
      const path = segments.slice(0, i).join('/');
      const isDir = !last || entry.isDir;
      const key = foldName(path);
      const known = this.#known.get(key);
      if (known === undefined) {
        this.#known.set(key, { path, isDir, explicit: last });
        continue;
      }
      const q = quoteName(rawName);
      if (known.path !== path) {
        throw new ArchiveError(
          'CASE_COLLISION',
          `entry ${q}: ${quoteName(path)} and ${quoteName(known.path)} are the same name on a case-insensitive disk`,
          rawName,
        );
      }
      if (known.isDir !== isDir) {
        throw new ArchiveError(
          'DUPLICATE_ENTRY',
          `entry ${q}: ${quoteName(path)} is both a file and a folder`,
          rawName,
        );
      }
      if (last && known.explicit) {
        throw new ArchiveError('DUPLICATE_ENTRY', `entry ${q}: duplicate name`, rawName);
      }
      if (last) known.explicit = true;
    }
  }
}

// One folder per brand under the sync root. The link between a folder and its brand is a
// marker file inside it (not the folder's name), so a folder the user renames stays linked,
// and a folder the user copies is noticed: two folders carrying one brand's marker.
import { writeFileAtomic as writeDurably } from '../export-parts/durable-fs.ts';
import { lstat, mkdir, open, readdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode, FolderError } from './folder-errors.ts';
import { ENGINE_TEMP_PREFIX, LOGO_DIR, MARKER_FILE } from './folder-layout.ts';
import { isBuiltInIgnored } from './ignore-rules.ts';
import { withPathLock } from './path-lock.ts';

/** Longest brand folder name, in UTF-16 units: leaves room under Windows' 260-char paths. */
export const MAX_FOLDER_NAME_LENGTH = 64;
const MAX_NAME_BYTES = 255; // ext4, APFS and NTFS all stop at 255 per path component
const MAX_MARKER_BYTES = 64 * 1024;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Bidirectional controls can make a name display as something else: never in a folder name.
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const SEPARATOR_CHARS = /[/\\|:]/g;
const OTHER_ILLEGAL_CHARS = /[<>"?*]/g;
// Windows refuses these device names as a file name's stem, whatever follows the first dot.
const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

export function isBrandId(id: string): boolean {
  return UUID_RE.test(id);
}

function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

// Cut at grapheme boundaries, so an emoji or an accented letter is never split in half.
function truncateName(s: string, maxLength: number): string {
  if (s.length <= maxLength && utf8Length(s) <= MAX_NAME_BYTES) return s;
  let out = '';
  for (const { segment } of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(s)) {
    const next = out + segment;
    if (next.length > maxLength || utf8Length(next) > MAX_NAME_BYTES) break;
    out = next;
  }
  return out;
}

const trimTrailingDotsAndSpaces = (s: string): string => s.replace(/[.\s]+$/u, '');

/**
 * A folder name for a brand that every OS accepts: NFC; no control, bidi or reserved
 * characters (`<>:"/\|?*`); no leading dot (hidden, or `.`/`..`); no trailing dot or space
 * (Windows drops them); no Windows device name (CON, NUL, COM1…); at most 64 characters,
 * cut between graphemes. An empty result falls back to "Brand <first 8 of the ID>".
 */
export function safeFolderName(name: string | null | undefined, brandId: string): string {
  let s = (name ?? '')
    .normalize('NFC')
    .replace(BIDI_CONTROLS, '')
    .replace(/\p{Cc}/gu, ' ')
    .replace(SEPARATOR_CHARS, '-')
    .replace(OTHER_ILLEGAL_CHARS, '_')
    .replace(/\s+/gu, ' ')
    .trim()
    .replace(/^[.\s]+/u, '');
  s = trimTrailingDotsAndSpaces(truncateName(s, MAX_FOLDER_NAME_LENGTH));
  if (s === '') s = `Brand ${brandId.slice(0, 8)}`;
  const dot = s.indexOf('.');
  const stem = dot === -1 ? s : s.slice(0, dot);
  if (WINDOWS_DEVICE_NAME.test(stem.trimEnd())) {
    s = `${stem.trimEnd()}_${dot === -1 ? '' : s.slice(dot)}`;
  }
  return s;
}

/**
 * The key two folder names collide on: NFC and case-folded. Always case-insensitive, even
 * on a case-sensitive disk, because a sync root may be copied to (or shared with) one that
 * is not.
 */
export function folderNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** `base`, or `base (2)`, `base (3)`… : the first that collides with none of `taken`. */
export function uniqueFolderName(base: string, taken: Iterable<string>): string {
  const keys = new Set<string>();
  for (const t of taken) keys.add(folderNameKey(t));
  if (!keys.has(folderNameKey(base))) return base;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const stem = trimTrailingDotsAndSpaces(
      truncateName(base, MAX_FOLDER_NAME_LENGTH - suffix.length),
    );
    const candidate = `${stem}${suffix}`;
    if (!keys.has(folderNameKey(candidate))) return candidate;
  }
}

export interface BrandMarker {
  brandId: string;
  brandName: string | null;
  /** When the folder was linked (ISO 8601). */
  createdAt: string;
}

export type MarkerRead =
  | { status: 'ok'; marker: BrandMarker }
  | { status: 'missing' }
  | {
      status: 'invalid';
      code: 'MARKER_UNREADABLE' | 'MARKER_TOO_LARGE' | 'MARKER_NOT_JSON' | 'MARKER_BAD_SHAPE';
      message: string;
    };

/** `dir/name` written atomically, its temp file named so the folder watcher ignores it. */
export function writeFileAtomic(dir: string, name: string, content: string): Promise<void> {
  return writeDurably(path.join(dir, name), content, { tempPrefix: ENGINE_TEMP_PREFIX });
}

export async function writeMarker(dirAbs: string, marker: BrandMarker): Promise<void> {
  if (!isBrandId(marker.brandId)) {
    throw new FolderError('INVALID_BRAND_ID', `Brand ID "${marker.brandId}" is not a UUID`);
  }
  const doc = {
    about: 'Links this folder to a brand in Brand Sync. Keep this file to keep the link.',
    version: 1,
    brandId: marker.brandId,
    brandName: marker.brandName,
    createdAt: marker.createdAt,
  };
  try {
    await writeFileAtomic(dirAbs, MARKER_FILE, JSON.stringify(doc, null, 2) + '\n');
  } catch (error) {
    throw new FolderError(
      'MARKER_WRITE_FAILED',
      `Could not write the brand marker in ${dirAbs}: ${errnoCode(error) ?? String(error)}`,
      { path: dirAbs, cause: error },
    );
  }
}

export async function readMarker(dirAbs: string): Promise<MarkerRead> {
  let text: string;
  try {
    const handle = await open(path.join(dirAbs, MARKER_FILE), 'r');
    try {
      const { size } = await handle.stat();
      if (size > MAX_MARKER_BYTES) {
        return {
          status: 'invalid',
          code: 'MARKER_TOO_LARGE',
          message: `${MARKER_FILE} is ${size} bytes; a marker is a few hundred`,
        };
      }
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { status: 'missing' };
    return {
      status: 'invalid',
      code: 'MARKER_UNREADABLE',
      message: `${MARKER_FILE} cannot be read (${errnoCode(error) ?? String(error)})`,
    };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { status: 'invalid', code: 'MARKER_NOT_JSON', message: `${MARKER_FILE} is not JSON` };
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    return {
      status: 'invalid',
      code: 'MARKER_BAD_SHAPE',
      message: `${MARKER_FILE} is not a JSON object`,
    };
  }
  const { brandId, brandName, createdAt } = doc as Record<string, unknown>;
  if (typeof brandId !== 'string' || !isBrandId(brandId)) {
    return {
      status: 'invalid',
      code: 'MARKER_BAD_SHAPE',
      message: `${MARKER_FILE} has no brandId UUID`,
    };
  }
  return {
    status: 'ok',
    marker: {
      brandId: brandId.toLowerCase(),
      brandName: typeof brandName === 'string' ? brandName : null,
      createdAt: typeof createdAt === 'string' ? createdAt : '',
    },
  };
}

export interface BrandFolder {
  brandId: string;
  /** The folder's name as it is on disk. */
  dirName: string;
  absPath: string;
  marker: BrandMarker;
}

export interface DuplicateLink {
  brandId: string;
  /** The folder that keeps the link. */
  kept: string;
  /** Folders carrying the same marker (copies): not synced until their marker is removed. */
  others: string[];
  message: string;
}

export interface Discovery {
  byBrandId: Map<string, BrandFolder>;
  duplicates: DuplicateLink[];
  /** Folders with no marker: linked to no brand. */
  unlinked: string[];
  invalid: { dirName: string; code: string; message: string }[];
}

export interface DiscoverOptions {
  /** Folder name each brand had last time (from the store): it wins a duplicate. */
  knownDirNames?: ReadonlyMap<string, string>;
}

async function markerAge(dirAbs: string): Promise<number> {
  try {
    const s = await lstat(path.join(dirAbs, MARKER_FILE));
    // A copy creates a new file: its birth time (or, where there is none, its change time)
    // is later than the original's.
    return s.birthtimeMs > 0 ? s.birthtimeMs : s.ctimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * Finds the brand folders under `root` by their markers. Symlinked folders are not followed
 * (they would alias another folder); hidden and system folders are skipped.
 */
export async function discoverBrandFolders(
  root: string,
  opts: DiscoverOptions = {},
): Promise<Discovery> {
  const entries = await readRoot(root);
  const found = new Map<string, BrandFolder[]>();
  const discovery: Discovery = { byBrandId: new Map(), duplicates: [], unlinked: [], invalid: [] };
  for (const entry of entries) {
    if (!entry.isDirectory() || isBuiltInIgnored(entry.name, true) || entry.name.startsWith('.')) {
      continue;
    }
    const absPath = path.join(root, entry.name);
    const read = await readMarker(absPath);
    if (read.status === 'missing') discovery.unlinked.push(entry.name);
    else if (read.status === 'invalid') {
      discovery.invalid.push({ dirName: entry.name, code: read.code, message: read.message });
    } else {
      const list = found.get(read.marker.brandId) ?? [];
      list.push({
        brandId: read.marker.brandId,
        dirName: entry.name,
        absPath,
        marker: read.marker,
      });
      found.set(read.marker.brandId, list);
    }
  }
  for (const [brandId, folders] of found) {
    const kept = folders.length === 1 ? folders[0] : await pickKept(brandId, folders, opts);
    if (kept === undefined) continue;
    discovery.byBrandId.set(brandId, kept);
    if (folders.length > 1) {
      const others = folders.filter((f) => f !== kept).map((f) => f.dirName);
      discovery.duplicates.push({
        brandId,
        kept: kept.dirName,
        others,
        message:
          `${others.map((o) => `"${o}"`).join(', ')} carr${others.length === 1 ? 'ies' : 'y'} ` +
          `the same brand marker as "${kept.dirName}" (a copied folder?). "${kept.dirName}" ` +
          `stays linked; the others are not synced until their ${MARKER_FILE} is deleted.`,
      });
    }
  }
  return discovery;
}

async function pickKept(
  brandId: string,
  folders: BrandFolder[],
  opts: DiscoverOptions,
): Promise<BrandFolder | undefined> {
  const known = opts.knownDirNames?.get(brandId);
  if (known !== undefined) {
    const match = folders.find((f) => folderNameKey(f.dirName) === folderNameKey(known));
    if (match) return match;
  }
  const aged = await Promise.all(
    folders.map(async (f) => ({ f, age: await markerAge(f.absPath) })),
  );
  aged.sort((a, b) => a.age - b.age || (a.f.dirName < b.f.dirName ? -1 : 1));
  return aged[0]?.f;
}

async function readRoot(root: string) {
  try {
    return await readdir(root, { withFileTypes: true });
  } catch (error) {
    throw new FolderError(
      'ROOT_MISSING',
      `The sync root ${root} cannot be listed (${errnoCode(error) ?? String(error)})`,
      { path: root, cause: error },
    );
  }
}

/**
 * Links a folder the user made with the brand's name (a real folder, no marker yet), read
 * from the disk now: a listing taken a moment ago may predate it.
 */
async function adoptUserFolder(
  root: string,
  base: string,
  marker: BrandMarker,
): Promise<EnsuredFolder | undefined> {
  const key = folderNameKey(base);
  const entry = (await readRoot(root)).find(
    (e) => e.isDirectory() && folderNameKey(e.name) === key,
  );
  if (entry === undefined) return undefined;
  const absPath = path.join(root, entry.name);
  if ((await readMarker(absPath)).status !== 'missing') return undefined;
  await writeMarker(absPath, marker);
  return {
    folder: { brandId: marker.brandId, dirName: entry.name, absPath, marker },
    created: false,
    adopted: true,
  };
}

/**
 * Finding and making brand folders under one root, one maker at a time within this process:
 * the brand listing and an export job each discover the root afresh inside it, so neither
 * makes a second folder ("Acme (2)") for a brand whose folder the other has just made.
 */
export function withFolderMaking<T>(root: string, work: () => Promise<T>): Promise<T> {
  return withPathLock(`folders:${path.resolve(root)}`, work);
}

/** Creates the sync root (and its parents) when it does not exist yet. */
export async function ensureSyncRoot(root: string): Promise<void> {
  try {
    await mkdir(root, { recursive: true });
  } catch (error) {
    throw new FolderError(
      errnoCode(error) === 'EEXIST' ? 'ROOT_MISSING' : 'ROOT_NOT_WRITABLE',
      `The sync root ${root} cannot be created (${errnoCode(error) ?? String(error)})`,
      { path: root, cause: error },
    );
  }
}

export interface EnsuredFolder {
  folder: BrandFolder;
  /** A new folder was made. */
  created: boolean;
  /** An existing folder with the brand's name and no marker was linked. */
  adopted: boolean;
}

/**
 * The brand's folder: the one carrying its marker, else a markerless folder already named
 * like the brand (the user made it first: adopted), else a new folder with a safe unique
 * name, its marker and an empty Logo/. Creation is race-safe: mkdir fails on a name taken
 * meanwhile, and the next suffix is tried.
 */
export async function ensureBrandFolder(
  root: string,
  brand: { id: string; name?: string | null },
  opts: { discovery?: Discovery; now?: () => Date } = {},
): Promise<EnsuredFolder> {
  if (!isBrandId(brand.id)) {
    throw new FolderError('INVALID_BRAND_ID', `Brand ID "${brand.id}" is not a UUID`);
  }
  const brandId = brand.id.toLowerCase();
  const discovery = opts.discovery ?? (await discoverBrandFolders(root));
  const linked = discovery.byBrandId.get(brandId);
  if (linked) return { folder: linked, created: false, adopted: false };

  const marker: BrandMarker = {
    brandId,
    brandName: brand.name ?? null,
    createdAt: (opts.now?.() ?? new Date()).toISOString(),
  };
  const base = safeFolderName(brand.name, brandId);
  const adopted = await adoptUserFolder(root, base, marker);
  if (adopted !== undefined) return adopted;

  const taken = (await readRoot(root)).map((e) => e.name);
  for (let attempt = 0; attempt < 100; attempt++) {
    const dirName = uniqueFolderName(base, taken);
    const absPath = path.join(root, dirName);
    try {
      await mkdir(absPath);
    } catch (error) {
      // Taken meanwhile, or equal to an existing name under the disk's own folding rules.
      if (errnoCode(error) === 'EEXIST') {
        // The user made the brand's folder just now: theirs, linked like one made before.
        const late = dirName === base ? await adoptUserFolder(root, base, marker) : undefined;
        if (late !== undefined) return late;
        taken.push(dirName);
        continue;
      }
      throw new FolderError(
        'ROOT_NOT_WRITABLE',
        `Could not create the brand folder ${absPath} (${errnoCode(error) ?? String(error)})`,
        { path: absPath, cause: error },
      );
    }
    try {
      await writeMarker(absPath, marker);
    } catch (error) {
      await rmdir(absPath).catch(() => undefined);
      throw error;
    }
    await mkdir(path.join(absPath, LOGO_DIR)).catch((error: unknown) => {
      if (errnoCode(error) !== 'EEXIST') throw error;
    });
    return { folder: { brandId, dirName, absPath, marker }, created: true, adopted: false };
  }
  throw new FolderError(
    'FOLDER_CREATE_FAILED',
    `No free folder name for brand ${brandId} under ${root} after 100 attempts`,
    { path: root },
  );
}

// The fixed names of the on-disk layout (docs/product.md "The folders on disk"), in one
// place so that the scanner, the watcher and the change detector agree on them.

/** Marker file in each brand folder: holds the brand ID, so a renamed folder keeps its link. */
export const MARKER_FILE = '.brand-sync-brand.json';
/** Per-brand ignore file, gitignore syntax, relative to the brand folder. */
export const IGNORE_FILE = '.brandsyncignore';
/** Prefix of every file the engine itself writes for a moment (marker temp files, probes). */
export const ENGINE_TEMP_PREFIX = '.brand-sync-';

export const LOGO_DIR = 'Logo';
export const BRAND_SKILL_DIR = 'Brand Skill';
export const LIBRARY_DIR = 'Library';

/**
 * Where a path inside a brand folder belongs:
 * - library-upload: any image at any depth, uploaded to the Library;
 * - logo: under Logo/, the newest accepted file becomes the brand's logo;
 * - ignored-reserved: under Brand Skill/ or Library/, written by the engine, never uploaded.
 */
export type Area = 'library-upload' | 'logo' | 'ignored-reserved';

// Reserved names match whatever the case: a root shared between a case-sensitive and a
// case-insensitive machine must not upload `library/` on one and ignore it on the other.
const RESERVED: ReadonlyMap<string, Area> = new Map([
  [LOGO_DIR.toLowerCase(), 'logo'],
  [BRAND_SKILL_DIR.toLowerCase(), 'ignored-reserved'],
  [LIBRARY_DIR.toLowerCase(), 'ignored-reserved'],
]);

// eslint-disable-next-line no-control-regex -- the ASCII range itself
const ASCII = /^[\x00-\x7f]*$/;

/** The area of a path relative to its brand folder ('/' separators, NFC). */
export function areaOf(relPath: string): Area {
  const slash = relPath.indexOf('/');
  const first = slash === -1 ? relPath : relPath.slice(0, slash);
  // Asked several times per file: plain ASCII needs no normalizing.
  const name = ASCII.test(first) ? first : first.normalize('NFC');
  return RESERVED.get(name.toLowerCase()) ?? 'library-upload';
}

// Every path the sync logic sees goes through here first: relative to its brand folder,
// Unicode NFC (macOS may hand out NFD), '/' separators on every OS, and a key that folds
// case where the disk does, so that `A.png` and `a.png` are one file there and two here.
import { randomBytes } from 'node:crypto';
import { lstat, open, unlink } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode, FolderError } from './folder-errors.ts';
import { type Area, areaOf, ENGINE_TEMP_PREFIX } from './folder-layout.ts';

export interface NormalisedPath {
  absPath: string;
  /** The brand folder's name as it is on disk (for fs calls and discovery). */
  brandDir: string;
  /** Path inside the brand folder: NFC, '/' separators; '' for the brand folder itself. */
  relPath: string;
  /** relPath as the disk compares it: case-folded when the disk ignores case. */
  pathKey: string;
  area: Area;
}

export type NormaliseResult =
  | ({ ok: true } & NormalisedPath)
  | {
      ok: false;
      code: 'OUTSIDE_ROOT' | 'IS_ROOT' | 'NOT_IN_BRAND_FOLDER';
      absPath: string;
      message: string;
    };

/** The key of a relative path: NFC, and lower-cased when the disk is case-insensitive. */
export function toPathKey(relPath: string, caseInsensitive: boolean): string {
  const nfc = relPath.normalize('NFC');
  return caseInsensitive ? nfc.toLowerCase() : nfc;
}

/**
 * Whether the filesystem at `dir` ignores case, found by creating a probe file with
 * lower-case letters and looking it up in upper case.
 */
export async function probeCaseInsensitive(dir: string): Promise<boolean> {
  const name = `${ENGINE_TEMP_PREFIX}case-probe-${randomBytes(4).toString('hex')}abc`;
  const lower = path.join(dir, name);
  try {
    await (await open(lower, 'wx')).close();
  } catch (error) {
    const code = errnoCode(error);
    throw new FolderError(
      code === 'ENOENT' || code === 'ENOTDIR' ? 'ROOT_MISSING' : 'ROOT_NOT_WRITABLE',
      `Cannot probe case sensitivity in ${dir} (${code ?? String(error)})`,
      { path: dir, cause: error },
    );
  }
  try {
    const [a, b] = await Promise.all([
      lstat(lower),
      lstat(path.join(dir, name.toUpperCase())).catch(() => undefined),
    ]);
    return b !== undefined && a.ino === b.ino && a.dev === b.dev;
  } finally {
    await unlink(lower).catch(() => undefined);
  }
}

export class PathNormaliser {
  readonly root: string;
  readonly caseInsensitive: boolean;

  constructor(opts: { root: string; caseInsensitive: boolean }) {
    this.root = path.resolve(opts.root);
    this.caseInsensitive = opts.caseInsensitive;
  }

  /** A normaliser for `root`, its case sensitivity probed once. */
  static async forRoot(root: string): Promise<PathNormaliser> {
    const resolved = path.resolve(root);
    return new PathNormaliser({
      root: resolved,
      caseInsensitive: await probeCaseInsensitive(resolved),
    });
  }

  pathKey(relPath: string): string {
    return toPathKey(relPath, this.caseInsensitive);
  }

  /**
   * Normalises an absolute path (or one relative to the root) under the sync root. Pass
   * `isDir: false` for a file: a file directly in the root belongs to no brand.
   */
  normalise(inputPath: string, isDir?: boolean): NormaliseResult {
    const absPath = path.resolve(this.root, inputPath);
    const rel = path.relative(this.root, absPath);
    if (rel === '') {
      return { ok: false, code: 'IS_ROOT', absPath, message: 'This is the sync root itself' };
    }
    if (rel.startsWith('..') || path.isAbsolute(rel)) {
      return {
        ok: false,
        code: 'OUTSIDE_ROOT',
        absPath,
        message: `${absPath} is outside the sync root ${this.root}`,
      };
    }
    const parts = rel.split(path.sep);
    const brandDir = parts[0] ?? '';
    if (parts.length === 1 && isDir === false) {
      return {
        ok: false,
        code: 'NOT_IN_BRAND_FOLDER',
        absPath,
        message: `${brandDir} lies directly in the sync root: only files inside a brand folder are uploaded`,
      };
    }
    return this.#within(absPath, brandDir, parts.slice(1).join('/'));
  }

  /**
   * Builds the normalised form from a brand folder name and a path inside it given with '/'
   * (the scanner's fast path: no path.relative per file).
   */
  within(brandDir: string, relPathRaw: string, absPath?: string): NormalisedPath & { ok: true } {
    const abs =
      absPath ??
      (relPathRaw === ''
        ? path.join(this.root, brandDir)
        : path.join(this.root, brandDir, ...relPathRaw.split('/')));
    return this.#within(abs, brandDir, relPathRaw);
  }

  #within(absPath: string, brandDir: string, relPathRaw: string): NormalisedPath & { ok: true } {
    const relPath = relPathRaw.normalize('NFC');
    return {
      ok: true,
      absPath,
      brandDir,
      relPath,
      pathKey: toPathKey(relPath, this.caseInsensitive),
      area: areaOf(relPath),
    };
  }
}

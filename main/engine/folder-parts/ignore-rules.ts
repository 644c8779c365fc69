// What is never uploaded: temp and system files (docs/product.md lists them), the engine's own
// files, and the patterns of a brand's `.brandsyncignore` (gitignore syntax, matched by
// the `ignore` package so that it behaves as users know it from git).
import { open } from 'node:fs/promises';
import path from 'node:path';
import { BoundedIgnore } from './bounded-ignore.ts';
import { errnoCode } from './folder-errors.ts';
import { ENGINE_TEMP_PREFIX, IGNORE_FILE } from './folder-layout.ts';

export const BUILT_IN_IGNORE_PATTERNS: readonly string[] = [
  // macOS
  '.DS_Store',
  '._*',
  '.Spotlight-V100',
  '.Trashes',
  '.fseventsd',
  '.TemporaryItems',
  '.DocumentRevisions-V100',
  '.apdisk',
  // Windows
  'Thumbs.db',
  'ehthumbs.db',
  'desktop.ini',
  '$RECYCLE.BIN',
  'System Volume Information',
  // Office and LibreOffice lock files
  '~$*',
  '.~lock.*#',
  // Temp files and downloads in progress
  '*.tmp',
  '*.temp',
  '*.part',
  '*.partial',
  '*.crdownload',
  '*.download',
  '*.opdownload',
  '.goutputstream-*',
  // Editors' swap and backup files
  '*.swp',
  '*.swo',
  '*.swx',
  '.*.sw?',
  '*~',
  '.#*',
  '\\#*#',
  // The engine's own files: marker, ignore file, temp files, probes
  `${ENGINE_TEMP_PREFIX}*`,
  IGNORE_FILE,
];

const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

const builtIn = new BoundedIgnore(BUILT_IN_IGNORE_PATTERNS, { ignorecase: true });

function asIgnorePath(relPath: string, isDir: boolean): string {
  return isDir ? `${relPath}/` : relPath;
}

/**
 * Whether a path (relative, '/' separators) is a temp or system file. macOS's custom-icon
 * file is named "Icon\r", which no gitignore pattern can spell (trailing whitespace is
 * trimmed), hence the extra test.
 */
export function isBuiltInIgnored(relPath: string, isDir = false): boolean {
  if (relPath === '') return false;
  if (path.posix.basename(relPath) === 'Icon\r') return true;
  return builtIn.ignores(asIgnorePath(relPath, isDir));
}

export function isIgnoreFile(relPath: string): boolean {
  return relPath === IGNORE_FILE;
}

export type IgnoreFileStatus =
  | { state: 'none' }
  | { state: 'loaded'; patterns: number }
  | {
      // The file exists but cannot be used: everything in the brand is held back (fail
      // closed) rather than uploading what the user may have meant to exclude.
      state: 'unusable';
      code: 'IGNORE_FILE_UNREADABLE' | 'IGNORE_FILE_TOO_LARGE';
      message: string;
    };

/** The rules of one brand folder: built-ins plus its `.brandsyncignore`. */
export class BrandIgnoreRules {
  readonly brandDirAbs: string;
  readonly #caseInsensitive: boolean;
  #user: BoundedIgnore | null = null;
  #status: IgnoreFileStatus = { state: 'none' };

  constructor(brandDirAbs: string, opts: { caseInsensitive: boolean }) {
    this.brandDirAbs = brandDirAbs;
    this.#caseInsensitive = opts.caseInsensitive;
  }

  get status(): IgnoreFileStatus {
    return this.#status;
  }

  /** (Re)reads the ignore file; call it when the file is added, changed or removed. */
  async reload(): Promise<IgnoreFileStatus> {
    const file = path.join(this.brandDirAbs, IGNORE_FILE);
    let text: string;
    try {
      const handle = await open(file, 'r');
      try {
        const { size } = await handle.stat();
        if (size > MAX_IGNORE_FILE_BYTES) {
          return this.#set(null, {
            state: 'unusable',
            code: 'IGNORE_FILE_TOO_LARGE',
            message: `${IGNORE_FILE} is ${size} bytes (at most ${MAX_IGNORE_FILE_BYTES}): nothing in this brand folder is synced until it is fixed`,
          });
        }
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT') return this.#set(null, { state: 'none' });
      return this.#set(null, {
        state: 'unusable',
        code: 'IGNORE_FILE_UNREADABLE',
        message: `${IGNORE_FILE} cannot be read (${code ?? String(error)}): nothing in this brand folder is synced until it can`,
      });
    }
    const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
    const user = new BoundedIgnore(lines, { ignorecase: this.#caseInsensitive });
    const patterns = lines.filter((l) => l.trim() !== '' && !l.startsWith('#')).length;
    return this.#set(user, { state: 'loaded', patterns });
  }

  #set(user: BoundedIgnore | null, status: IgnoreFileStatus): IgnoreFileStatus {
    this.#user = user;
    this.#status = status;
    return status;
  }

  /** Whether `relPath` (relative to the brand folder, '/' separators) is ignored. */
  ignores(relPath: string, isDir = false): boolean {
    if (relPath === '') return false;
    if (isBuiltInIgnored(relPath, isDir)) return true;
    if (this.#status.state === 'unusable') return true;
    return this.#user?.ignores(asIgnorePath(relPath, isDir)) ?? false;
  }
}

/** One BrandIgnoreRules per brand folder, loaded once and shared by scanner and watcher. */
export class IgnoreRulesRegistry {
  readonly #root: string;
  readonly #caseInsensitive: boolean;
  readonly #rules = new Map<string, Promise<BrandIgnoreRules>>();

  constructor(root: string, opts: { caseInsensitive: boolean }) {
    this.#root = root;
    this.#caseInsensitive = opts.caseInsensitive;
  }

  /** The rules of the brand folder named `brandDir` (as on disk), loaded on first use. */
  rulesFor(brandDir: string): Promise<BrandIgnoreRules> {
    let rules = this.#rules.get(brandDir);
    if (rules === undefined) {
      const created = new BrandIgnoreRules(path.join(this.#root, brandDir), {
        caseInsensitive: this.#caseInsensitive,
      });
      rules = created.reload().then(() => created);
      this.#rules.set(brandDir, rules);
    }
    return rules;
  }

  /** Reads the brand folder's ignore file again (once, when these are its first rules). */
  async reload(brandDir: string): Promise<IgnoreFileStatus> {
    const known = this.#rules.get(brandDir);
    if (known === undefined) return (await this.rulesFor(brandDir)).status;
    return (await known).reload();
  }

  forget(brandDir: string): void {
    this.#rules.delete(brandDir);
  }
}

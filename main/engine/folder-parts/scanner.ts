// Walks the sync root for the start-up reconcile, the periodic rescan and the polling
// fallback. Brand folders are the root's directories; inside them it yields every file
// that is not ignored, normalised, with its stat. It streams (a bounded channel, bounded
// stats in flight), follows symlinks only while they stay inside the root, and stops at
// loops.
import type { Dirent } from 'node:fs';
import { lstat, opendir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { Channel, Limiter } from './concurrency.ts';
import { errnoCode, FolderError } from './folder-errors.ts';
import { areaOf } from './folder-layout.ts';
import { type FileStat, toFileStat } from './file-stat.ts';
import {
  type BrandIgnoreRules,
  type IgnoreRulesRegistry,
  isBuiltInIgnored,
} from './ignore-rules.ts';
import { type NormalisedPath, type PathNormaliser, toPathKey } from './path-normalise.ts';

/** How often the whole root is rescanned to catch what the watcher missed. */
export const DEFAULT_RESCAN_INTERVAL_MS = 60 * 60 * 1000;

export interface ScanOptions {
  normaliser: PathNormaliser;
  rules: IgnoreRulesRegistry;
  /** Only these brand folders (names as on disk); default: every folder in the root. */
  brandDirs?: readonly string[];
  /** Deepest folder level inside a brand folder. */
  maxDepth?: number;
  signal?: AbortSignal;
}

export interface ScannedFile extends NormalisedPath {
  type: 'file';
  stat: FileStat;
}

export type ScanIssueCode =
  | 'NOT_IN_BRAND_FOLDER' // a file directly in the root
  | 'SYMLINK_AT_ROOT' // a symlink where brand folders are: not a brand folder
  | 'SYMLINK_OUTSIDE_ROOT' // not followed
  | 'SYMLINK_LOOP' // not followed again
  | 'BROKEN_SYMLINK'
  | 'UNREADABLE_DIR'
  | 'UNREADABLE_ENTRY' // its stat failed (an I/O error): the scan goes on without it
  | 'NAME_COLLISION' // two names in one folder that are one after NFC (café in NFC and NFD)
  | 'TOO_DEEP'
  | 'IGNORE_FILE_UNUSABLE'; // the brand's .brandsyncignore cannot be used: brand skipped

export interface ScanIssue {
  type: 'issue';
  code: ScanIssueCode;
  absPath: string;
  brandDir?: string;
  message: string;
}

export type ScanItem = ScannedFile | ScanIssue;

interface DirJob {
  absDir: string;
  brandDir: string;
  rules: BrandIgnoreRules;
  /** Raw (as on disk) path inside the brand folder, '/' separators. */
  rel: string;
  /** Real path of this folder, and of the folders above it on the way here. */
  realDir: string;
  chain: RealChain | null;
  depth: number;
}

interface RealChain {
  realDir: string;
  parent: RealChain | null;
}

const CHANNEL_CAPACITY = 512;
const DIRS_AT_ONCE = 4;
// Entries read from a folder at once, and stats in flight per folder: a folder with
// 100,000 files is listed and stat'ed a batch at a time, never held whole.
const BATCH = 128;

interface Pending {
  absPath: string;
  rel: string;
  relNfc: string;
  name: string;
  kind: 'file' | 'symlink' | 'unknown';
}

/** Streams the files (and problems) under the sync root. */
export function scanRoot(opts: ScanOptions): AsyncIterable<ScanItem> {
  const channel = new Channel<ScanItem>(CHANNEL_CAPACITY);
  void new Walk(opts, channel).run();
  return channel;
}

class Walk {
  readonly #opts: ScanOptions;
  readonly #out: Channel<ScanItem>;
  readonly #dirs = new Limiter(DIRS_AT_ONCE);
  readonly #maxDepth: number;
  #outstanding = 0;
  #realRoot = '';

  constructor(opts: ScanOptions, out: Channel<ScanItem>) {
    this.#opts = opts;
    this.#out = out;
    this.#maxDepth = opts.maxDepth ?? 64;
  }

  async run(): Promise<void> {
    // The root listing counts as outstanding work, so that the first brand folder done
    // does not end the scan while the root is still being listed.
    this.#outstanding++;
    try {
      const root = this.#opts.normaliser.root;
      this.#realRoot = await realpath(root).catch((error: unknown) => {
        throw new FolderError(
          'ROOT_MISSING',
          `The sync root ${root} cannot be scanned (${errnoCode(error) ?? String(error)})`,
          { path: root, cause: error },
        );
      });
      await this.#readRoot();
    } catch (error) {
      this.#out.close(error);
    } finally {
      if (--this.#outstanding === 0) this.#out.close();
    }
  }

  get #stopped(): boolean {
    if (this.#opts.signal?.aborted) this.#out.close(this.#opts.signal.reason);
    return this.#out.closed;
  }

  #spawn(limiter: Limiter, task: () => Promise<void>): void {
    this.#outstanding++;
    limiter
      .run(task)
      .catch((error: unknown) => this.#out.close(error))
      .finally(() => {
        if (--this.#outstanding === 0) this.#out.close();
      });
  }

  #issue(code: ScanIssueCode, absPath: string, message: string, brandDir?: string): Promise<void> {
    return this.#out.push({ type: 'issue', code, absPath, brandDir, message });
  }

  async #readRoot(): Promise<void> {
    const { normaliser, brandDirs, rules } = this.#opts;
    const wanted = brandDirs && new Set(brandDirs);
    for await (const entry of await opendir(normaliser.root)) {
      if (this.#stopped) return;
      const name = entry.name;
      const absPath = path.join(normaliser.root, name);
      const isDir = entry.isDirectory();
      if (name.startsWith('.') || isBuiltInIgnored(name, isDir)) continue;
      if (isDir) {
        if (wanted && !wanted.has(name)) continue;
        const brandRules = await rules.rulesFor(name);
        if (brandRules.status.state === 'unusable') {
          await this.#issue('IGNORE_FILE_UNUSABLE', absPath, brandRules.status.message, name);
          continue;
        }
        const realDir = path.join(this.#realRoot, name);
        this.#spawn(this.#dirs, () =>
          this.#readDir({
            absDir: absPath,
            brandDir: name,
            rules: brandRules,
            rel: '',
            realDir,
            chain: null,
            depth: 1,
          }),
        );
      } else if (wanted) {
        continue; // a scan of some brands says nothing about the root
      } else if (entry.isSymbolicLink()) {
        await this.#issue(
          'SYMLINK_AT_ROOT',
          absPath,
          `${name} is a symlink: brand folders must be real folders in the sync root`,
        );
      } else if (entry.isFile()) {
        await this.#issue(
          'NOT_IN_BRAND_FOLDER',
          absPath,
          `${name} lies directly in the sync root: only files inside a brand folder are uploaded`,
        );
      }
    }
  }

  async #readDir(job: DirJob): Promise<void> {
    let dir;
    try {
      dir = await opendir(job.absDir, { bufferSize: BATCH });
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return; // removed meanwhile
      return this.#issue(
        'UNREADABLE_DIR',
        job.absDir,
        `This folder cannot be read (${code ?? String(error)})`,
        job.brandDir,
      );
    }
    const seen = new Map<string, string>(); // NFC key -> first raw name
    let batch: Pending[] = [];
    for await (const entry of dir) {
      if (this.#stopped) return;
      const key = toPathKey(entry.name, this.#opts.normaliser.caseInsensitive);
      const earlier = seen.get(key);
      const absPath = path.join(job.absDir, entry.name);
      if (earlier !== undefined) {
        await this.#issue(
          'NAME_COLLISION',
          absPath,
          `"${entry.name}" and "${earlier}" are the same name in different Unicode forms; only the first is synced`,
          job.brandDir,
        );
        continue;
      }
      seen.set(key, entry.name);
      const rel = job.rel === '' ? entry.name : `${job.rel}/${entry.name}`;
      const relNfc = rel.normalize('NFC');
      if (areaOf(relNfc) === 'ignored-reserved') continue;
      const kind = entryKind(entry);
      if (kind === 'dir') {
        if (!job.rules.ignores(relNfc, true)) await this.#enterDir(job, absPath, rel, entry.name);
      } else if (kind !== 'other') {
        if (kind === 'file' && job.rules.ignores(relNfc)) continue;
        batch.push({ absPath, rel, relNfc, name: entry.name, kind });
        if (batch.length >= BATCH) {
          await this.#statBatch(job, batch);
          batch = [];
        }
      }
    }
    await this.#statBatch(job, batch);
  }

  async #enterDir(parent: DirJob, absDir: string, rel: string, name: string, realDir?: string) {
    if (parent.depth >= this.#maxDepth) {
      return this.#issue(
        'TOO_DEEP',
        absDir,
        `Folders deeper than ${this.#maxDepth} levels are not synced`,
        parent.brandDir,
      );
    }
    const child: DirJob = {
      ...parent,
      absDir,
      rel,
      realDir: realDir ?? path.join(parent.realDir, name),
      chain: { realDir: parent.realDir, parent: parent.chain },
      depth: parent.depth + 1,
    };
    this.#spawn(this.#dirs, () => this.#readDir(child));
  }

  /** Stats a batch of a folder's entries at once: the listing waits, the disk does not. */
  async #statBatch(job: DirJob, batch: Pending[]): Promise<void> {
    await Promise.all(
      batch.map(async (p) => {
        if (p.kind === 'symlink') return this.#followSymlink(job, p.absPath, p.rel, p.relNfc);
        let s;
        try {
          s = await lstat(p.absPath);
        } catch (error) {
          const code = errnoCode(error);
          if (code === 'ENOENT') return; // deleted meanwhile: the watcher says so
          return this.#issue(
            'UNREADABLE_ENTRY',
            p.absPath,
            `This entry cannot be examined (${code ?? String(error)})`,
            job.brandDir,
          );
        }
        if (s.isFile()) {
          if (p.kind === 'unknown' && job.rules.ignores(p.relNfc)) return;
          return this.#emitFile(job, p.absPath, p.rel, toFileStat(s));
        }
        // The listing did not say what it was (some filesystems do not): now it is known.
        if (p.kind !== 'unknown') return;
        if (s.isDirectory()) {
          if (!job.rules.ignores(p.relNfc, true))
            await this.#enterDir(job, p.absPath, p.rel, p.name);
        } else if (s.isSymbolicLink()) {
          await this.#followSymlink(job, p.absPath, p.rel, p.relNfc);
        }
      }),
    );
  }

  #emitFile(job: DirJob, absPath: string, rel: string, s: FileStat): Promise<void> {
    const { ok: _ok, ...normalised } = this.#opts.normaliser.within(job.brandDir, rel, absPath);
    return this.#out.push({ type: 'file', ...normalised, stat: s });
  }

  async #followSymlink(job: DirJob, absPath: string, rel: string, relNfc: string): Promise<void> {
    let real: string;
    try {
      real = await realpath(absPath);
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ELOOP') {
        return this.#issue(
          'SYMLINK_LOOP',
          absPath,
          `This symlink points back to itself: not followed`,
          job.brandDir,
        );
      }
      return this.#issue(
        'BROKEN_SYMLINK',
        absPath,
        `This symlink points to nothing (${code ?? String(error)})`,
        job.brandDir,
      );
    }
    if (!isInside(this.#realRoot, real, this.#opts.normaliser.caseInsensitive)) {
      return this.#issue(
        'SYMLINK_OUTSIDE_ROOT',
        absPath,
        `This symlink points outside the sync root (${real}): not followed`,
        job.brandDir,
      );
    }
    const s = await stat(absPath);
    if (s.isDirectory()) {
      if (job.rules.ignores(relNfc, true)) return;
      if (this.#isLoop(job, real)) {
        return this.#issue(
          'SYMLINK_LOOP',
          absPath,
          `This symlink leads back into a folder above it: not followed`,
          job.brandDir,
        );
      }
      return this.#enterDir(job, absPath, rel, path.basename(absPath), real);
    }
    if (s.isFile() && !job.rules.ignores(relNfc))
      await this.#emitFile(job, absPath, rel, toFileStat(s));
  }

  /** The target is this folder, one above it, or one already on the way here. */
  #isLoop(job: DirJob, realTarget: string): boolean {
    const ci = this.#opts.normaliser.caseInsensitive;
    if (isInside(realTarget, job.realDir, ci)) return true;
    for (let c: RealChain | null = job.chain; c; c = c.parent) {
      if (isInside(realTarget, c.realDir, ci)) return true;
    }
    return false;
  }
}

function entryKind(entry: Dirent): Pending['kind'] | 'dir' | 'other' {
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile()) return 'file';
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice()) {
    return 'other';
  }
  return 'unknown'; // some filesystems do not report the type in the listing
}

/** `inner` is `outer` or below it. */
function isInside(outer: string, inner: string, caseInsensitive: boolean): boolean {
  const rel = path.relative(
    caseInsensitive ? outer.toLowerCase() : outer,
    caseInsensitive ? inner.toLowerCase() : inner,
  );
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

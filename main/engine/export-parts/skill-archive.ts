// Reads a Brand Skill ZIP as hostile input: every entry is checked from the central
// directory before a single byte is written, then the files are streamed (never held in
// memory) into an empty folder, with each file's length and CRC checked against its header.
import { createHash } from 'node:crypto';
import { mkdir, open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { crc32, createInflateRaw } from 'node:zlib';
import { getFileNameLowLevel, open as openZip } from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { fsyncDir, writeAll } from './durable-fs.ts';
import { PathTable, parseEntryName, quoteName } from './entry-names.ts';
import { ArchiveError } from './errors.ts';

export interface ArchiveLimits {
  maxEntries: number;
  /** Sum of the expanded sizes of all files. */
  maxTotalBytes: number;
  maxEntryBytes: number;
}

/** A Skill is markdown, a profile and some assets: these bounds are far above any real one. */
export const DEFAULT_ARCHIVE_LIMITS: Readonly<ArchiveLimits> = {
  maxEntries: 20_000,
  maxTotalBytes: 2 * 1024 ** 3,
  maxEntryBytes: 1024 ** 3,
};

export interface ArchiveFile {
  /** Relative path with `/` separators, as named in the archive. */
  path: string;
  size: number;
}

export interface ExtractedFile extends ArchiveFile {
  sha256: string;
}

export interface ExtractProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

export interface ExtractOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ExtractProgress) => void;
}

export interface OpenArchiveOptions {
  limits?: Partial<ArchiveLimits>;
  /** Size the download announced; a different file size is LENGTH_MISMATCH. */
  expectedSize?: number;
  /** Root-level names the archive may not use (folded: lower case). */
  reservedRootNames?: readonly string[];
}

/** yauzl reads the directory and local headers; file data is read through our own handle. */
interface ArchiveSource {
  zip: ZipFile;
  handle: FileHandle;
}

interface PlannedFile extends ArchiveFile {
  entry: Entry;
  segments: string[];
}

// Files written at once: enough to overlap inflate, hashing and fsync on two cores
// without holding many buffers.
const CONCURRENCY = 4;
// Per worker, reused for every stored entry: no garbage per chunk.
const COPY_BUFFER = 256 * 1024;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const DOS_DIRECTORY = 0x10;
const DOS_REPARSE_POINT = 0x400;
const LOCAL_HEADER_MIN = 30;

/** An archive whose every entry passed the checks; only extraction remains. */
export class SkillArchive {
  readonly files: readonly ArchiveFile[];
  /** Every folder to create, parents before children. */
  readonly dirs: readonly string[];
  readonly totalBytes: number;
  readonly #source: ArchiveSource;
  readonly #planned: readonly PlannedFile[];

  private constructor(source: ArchiveSource, planned: PlannedFile[], dirs: string[]) {
    this.#source = source;
    this.#planned = planned;
    this.files = planned.map(({ path: p, size }) => ({ path: p, size }));
    this.dirs = dirs;
    this.totalBytes = planned.reduce((sum, f) => sum + f.size, 0);
  }

  /** Opens and checks the whole central directory; throws ArchiveError on the first bad entry. */
  static async open(zipPath: string, options: OpenArchiveOptions = {}): Promise<SkillArchive> {
    const limits = { ...DEFAULT_ARCHIVE_LIMITS, ...options.limits };
    if (options.expectedSize !== undefined) {
      const { size } = await stat(zipPath);
      if (size !== options.expectedSize) {
        throw new ArchiveError(
          'LENGTH_MISMATCH',
          `the archive is ${size} bytes but ${options.expectedSize} were expected`,
        );
      }
    }
    const zip = await openZipFile(zipPath);
    let handle: FileHandle | undefined;
    try {
      if (zip.entryCount > limits.maxEntries) {
        throw new ArchiveError(
          'TOO_MANY_ENTRIES',
          `the archive has ${zip.entryCount} entries; at most ${limits.maxEntries} are allowed`,
        );
      }
      const entries = await readCentralDirectory(zip);
      const { files, dirs } = plan(entries, limits, options.reservedRootNames ?? []);
      handle = await open(zipPath, 'r');
      return new SkillArchive({ zip, handle }, files, dirs);
    } catch (err) {
      zip.close();
      await handle?.close();
      throw err;
    }
  }

  /**
   * Writes every file into `destDir` (which must exist and be empty) and fsyncs files and
   * folders, so that a rename of `destDir` afterwards publishes complete content.
   */
  async extractTo(destDir: string, options: ExtractOptions = {}): Promise<ExtractedFile[]> {
    for (const dir of this.dirs) await mkdir(path.join(destDir, dir));
    const results: ExtractedFile[] = new Array(this.#planned.length);
    const progress = {
      filesDone: 0,
      filesTotal: this.#planned.length,
      bytesDone: 0,
      bytesTotal: this.totalBytes,
    };
    // One failure stops the other workers before the caller deletes the folder under them.
    const stop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    let next = 0;
    const worker = async (): Promise<void> => {
      const buffer = Buffer.allocUnsafe(COPY_BUFFER);
      while (next < this.#planned.length) {
        signal.throwIfAborted();
        const index = next++;
        const file = this.#planned[index] as PlannedFile;
        results[index] = await extractFile(this.#source, file, destDir, signal, buffer);
        progress.filesDone++;
        progress.bytesDone += file.size;
        options.onProgress?.({ ...progress });
      }
    };
    const settled = await Promise.allSettled(
      Array.from({ length: Math.min(CONCURRENCY, this.#planned.length) }, () =>
        worker().catch((err: unknown) => {
          stop.abort(err);
          throw err;
        }),
      ),
    );
    const failure = settled.find((s) => s.status === 'rejected');
    if (failure) throw options.signal?.aborted ? options.signal.reason : failure.reason;
    // Deepest first, then the root: each folder's entries are on disk before the rename.
    for (const dir of [...this.dirs].reverse()) await fsyncDir(path.join(destDir, dir));
    await fsyncDir(destDir);
    return results;
  }

  /** Releases the file. */
  async close(): Promise<void> {
    this.#source.zip.close();
    await this.#source.handle.close();
  }
}

function openZipFile(zipPath: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    openZip(
      zipPath,
      // Names stay raw so that our checks, not yauzl's, judge them; sizes are checked below
      // with our own codes.
      { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: false },
      (err, zip) => {
        if (err) {
          if ((err as NodeJS.ErrnoException).code !== undefined) return reject(err);
          classifyOpenError(zipPath, err).then(reject, reject);
        } else resolve(zip);
      },
    );
  });
}

async function classifyOpenError(zipPath: string, err: Error): Promise<ArchiveError> {
  if (/signature not found/i.test(err.message)) {
    // A file that starts like a ZIP but has no end record was cut short.
    const handle = await open(zipPath, 'r');
    try {
      const head = Buffer.alloc(4);
      await handle.read(head, 0, 4, 0);
      if (head.readUInt32LE(0) === 0x04034b50) {
        return new ArchiveError(
          'TRUNCATED',
          'the archive is truncated: its end record is missing',
          undefined,
          err,
        );
      }
    } finally {
      await handle.close();
    }
    return new ArchiveError('CORRUPT', 'not a ZIP archive', undefined, err);
  }
  return readerError(err);
}

/** Maps an error of the ZIP reader to our codes. */
function readerError(err: unknown, entryName?: string): ArchiveError {
  if (err instanceof ArchiveError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const where = entryName === undefined ? 'the archive' : `entry ${quoteName(entryName)}`;
  if (/unexpected EOF|overflows file bounds/i.test(message)) {
    return new ArchiveError('TRUNCATED', `${where} is truncated: ${message}`, entryName, err);
  }
  return new ArchiveError('CORRUPT', `${where} is damaged: ${message}`, entryName, err);
}

function readCentralDirectory(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', (err: unknown) => reject(readerError(err)));
    zip.readEntry();
  });
}

function plan(
  entries: Entry[],
  limits: ArchiveLimits,
  reservedRootNames: readonly string[],
): { files: PlannedFile[]; dirs: string[] } {
  const table = new PathTable();
  const files: PlannedFile[] = [];
  const dirs = new Set<string>();
  let total = 0;
  for (const entry of entries) {
    const rawName = getFileNameLowLevel(
      entry.generalPurposeBitFlag,
      entry.fileNameRaw,
      entry.extraFields,
      true,
    );
    const parsed = parseEntryName(rawName, { reservedRootNames });
    checkEntryKind(entry, rawName, parsed.isDir);
    table.add(parsed, rawName);
    const last = parsed.isDir ? parsed.segments.length : parsed.segments.length - 1;
    for (let i = 1; i <= last; i++) dirs.add(parsed.segments.slice(0, i).join('/'));
    if (parsed.isDir) continue;
    const size = entry.uncompressedSize;
    if (size > limits.maxEntryBytes) {
      throw new ArchiveError(
        'TOO_LARGE',
        `entry ${quoteName(rawName)} expands to ${size} bytes; at most ${limits.maxEntryBytes} are allowed per file`,
        rawName,
      );
    }
    total += size;
    if (total > limits.maxTotalBytes) {
      throw new ArchiveError(
        'TOO_LARGE',
        `the archive expands to more than ${limits.maxTotalBytes} bytes (at entry ${quoteName(rawName)})`,
        rawName,
      );
    }
    files.push({ entry, path: parsed.path, segments: parsed.segments, size });
  }
  checkNoOverlap(files);
  const sortedDirs = [...dirs].sort((a, b) => a.split('/').length - b.split('/').length);
  return { files, dirs: sortedDirs };
}

function checkEntryKind(entry: Entry, name: string, namedAsDir: boolean): void {
  const q = quoteName(name);
  const unixMode = entry.externalFileAttributes >>> 16;
  const type = unixMode & S_IFMT;
  const dosAttributes = entry.externalFileAttributes & 0xffff;
  if (type === S_IFLNK || (unixMode === 0 && dosAttributes & DOS_REPARSE_POINT)) {
    throw new ArchiveError('SYMLINK', `entry ${q} is a symbolic link`, name);
  }
  if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) {
    throw new ArchiveError(
      'UNSUPPORTED_ENTRY',
      `entry ${q} is a special file (mode ${unixMode.toString(8)})`,
      name,
    );
  }
  const markedAsDir = type === S_IFDIR || (unixMode === 0 && (dosAttributes & DOS_DIRECTORY) !== 0);
  if (markedAsDir !== namedAsDir && (markedAsDir || type === S_IFREG)) {
    throw new ArchiveError(
      'CORRUPT',
      `entry ${q}: its name and its attributes disagree on folder or file`,
      name,
    );
  }
  if (entry.generalPurposeBitFlag & 0x1) {
    throw new ArchiveError('UNSUPPORTED_ENTRY', `entry ${q} is encrypted`, name);
  }
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw new ArchiveError(
      'UNSUPPORTED_ENTRY',
      `entry ${q} uses compression method ${entry.compressionMethod}; only stored and deflate are supported`,
      name,
    );
  }
  if (namedAsDir && entry.uncompressedSize !== 0) {
    throw new ArchiveError(
      'CORRUPT',
      `folder entry ${q} carries ${entry.uncompressedSize} bytes`,
      name,
    );
  }
  if (entry.compressionMethod === 0 && entry.compressedSize !== entry.uncompressedSize) {
    throw new ArchiveError(
      'LENGTH_MISMATCH',
      `entry ${q} is stored with ${entry.compressedSize} bytes but declares ${entry.uncompressedSize}`,
      name,
    );
  }
}

/**
 * Entries whose data overlap let a small archive expand many times over (a known zip-bomb
 * construction); a ZIP writer never produces them.
 */
function checkNoOverlap(files: PlannedFile[]): void {
  const byOffset = [...files].sort(
    (a, b) => a.entry.relativeOffsetOfLocalHeader - b.entry.relativeOffsetOfLocalHeader,
  );
  for (let i = 1; i < byOffset.length; i++) {
    const prev = byOffset[i - 1] as PlannedFile;
    const cur = byOffset[i] as PlannedFile;
    const prevEnd =
      prev.entry.relativeOffsetOfLocalHeader + LOCAL_HEADER_MIN + prev.entry.compressedSize;
    if (prevEnd > cur.entry.relativeOffsetOfLocalHeader) {
      throw new ArchiveError(
        'CORRUPT',
        `entries ${quoteName(prev.path)} and ${quoteName(cur.path)} overlap in the archive`,
        cur.path,
      );
    }
  }
}

/** Length, CRC and hash of one entry's bytes as they stream past. */
class EntryCheck {
  readonly #file: PlannedFile;
  readonly #hash = createHash('sha256');
  #size = 0;
  #crc = 0;

  constructor(file: PlannedFile) {
    this.#file = file;
  }

  accept(chunk: Buffer): void {
    this.#size += chunk.length;
    // Checked per chunk: a lying header must not expand past its declared size on disk.
    if (this.#size > this.#file.size) {
      throw new ArchiveError(
        'LENGTH_MISMATCH',
        `entry ${quoteName(this.#file.path)} expands past its declared ${this.#file.size} bytes`,
        this.#file.path,
      );
    }
    this.#crc = crc32(chunk, this.#crc);
    this.#hash.update(chunk);
  }

  finish(): ExtractedFile {
    const { path: name, size } = this.#file;
    if (this.#size !== size) {
      throw new ArchiveError(
        'LENGTH_MISMATCH',
        `entry ${quoteName(name)} holds ${this.#size} bytes but declares ${size}`,
        name,
      );
    }
    if (this.#crc >>> 0 !== this.#file.entry.crc32 >>> 0) {
      throw new ArchiveError('CRC_MISMATCH', `entry ${quoteName(name)} fails its CRC check`, name);
    }
    return { path: name, size, sha256: this.#hash.digest('hex') };
  }
}

async function extractFile(
  source: ArchiveSource,
  file: PlannedFile,
  destDir: string,
  signal: AbortSignal,
  buffer: Buffer,
): Promise<ExtractedFile> {
  // `wx`: the staging folder is new, so an existing file here means something is wrong.
  const out = await open(path.join(destDir, ...file.segments), 'wx', 0o644);
  try {
    const check = new EntryCheck(file);
    const write = async (chunk: Buffer): Promise<void> => {
      signal.throwIfAborted();
      check.accept(chunk);
      await writeAll(out, chunk);
    };
    try {
      if (file.entry.compressionMethod === 0) await copyStored(source, file, buffer, write);
      else await copyDeflated(source, file, buffer, write);
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      throw readerError(err, file.path);
    }
    const extracted = check.finish();
    await out.sync();
    return extracted;
  } finally {
    await out.close();
  }
}

/** Where an entry's data lies in the file; yauzl also checks it is within the file. */
async function dataRange(
  source: ArchiveSource,
  file: PlannedFile,
): Promise<{ start: number; end: number }> {
  const { fileDataStart } = await source.zip.readLocalFileHeaderPromise(file.entry, {
    minimal: true,
  });
  return { start: fileDataStart, end: fileDataStart + file.entry.compressedSize };
}

/**
 * Writes to zlib and waits until it has consumed the input, so that the buffer may be
 * reused. A stream that fails or is destroyed meanwhile never calls back: its close ends
 * the wait instead.
 */
function consumed(inflate: Writable, input: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    if (inflate.destroyed) return reject(new Error('the inflate stream is closed'));
    const onClose = (): void => reject(new Error('the inflate stream closed'));
    inflate.once('close', onClose);
    inflate.write(input, (err) => {
      inflate.off('close', onClose);
      if (err) reject(err);
      else resolve();
    });
  });
}

/**
 * The bulk of a Skill (images) is stored: read straight into one reused buffer, each chunk
 * handed on as it lies in the archive (to the file, or to the inflater of a deflated one).
 */
async function copyStored(
  source: ArchiveSource,
  file: PlannedFile,
  buffer: Buffer,
  write: (chunk: Buffer) => Promise<void>,
): Promise<void> {
  const { start, end } = await dataRange(source, file);
  for (let at = start; at < end;) {
    const { bytesRead } = await source.handle.read(
      buffer,
      0,
      Math.min(buffer.length, end - at),
      at,
    );
    if (bytesRead === 0) throw new Error('unexpected EOF');
    await write(buffer.subarray(0, bytesRead));
    at += bytesRead;
  }
}

/**
 * Deflated data is read through the worker's buffer and inflated in chunks the size of the
 * file: yauzl's own stream chain (64 KiB reads, 16 KiB output, three stream hops) takes
 * about twice the time, and each new buffer is garbage that raises the peak RSS.
 */
async function copyDeflated(
  source: ArchiveSource,
  file: PlannedFile,
  buffer: Buffer,
  write: (chunk: Buffer) => Promise<void>,
): Promise<void> {
  // zlib's minimum output chunk is 64 bytes.
  const inflate = createInflateRaw({ chunkSize: Math.max(64, Math.min(COPY_BUFFER, file.size)) });
  const feed = (async (): Promise<void> => {
    await copyStored(source, file, buffer, (chunk) => consumed(inflate, chunk));
    inflate.end();
  })().catch((err: unknown) => {
    inflate.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) await write(chunk);
  } finally {
    inflate.destroy();
    // The buffer is the worker's: no read into it may still be running when we return.
    await feed;
  }
}

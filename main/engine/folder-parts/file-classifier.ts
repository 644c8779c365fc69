// What a file is, judged by its bytes (never its name), and whether the service will take
// it: PNG, JPEG, WebP, AVIF up to 10 MB anywhere; SVG too, but only in Logo/. Anything
// else is a skip with a code and a sentence the user can act on.
import type * as FileType from 'file-type';
import { open } from 'node:fs/promises';
import { ioFailure } from './folder-errors.ts';
import type { Area } from './folder-layout.ts';
import { type FileStat, READ_FLAGS, sameFileStat, toFileStat } from './file-stat.ts';
import {
  checkAvif,
  checkJpeg,
  checkPng,
  checkWebp,
  type StructureCheck,
} from './image-structure.ts';
import { rasterBySignature } from './raster-signature.ts';
import { sniffSvg } from './svg-sniff.ts';

/** The service's limit, where every assumption lives (docs/service.md, 10 MB upload limit: 10,000,000 bytes). */
export { MAX_UPLOAD_BYTES } from '../api/assumed.ts';
import { MAX_UPLOAD_BYTES } from '../api/assumed.ts';

export type AcceptedKind = 'png' | 'jpeg' | 'webp' | 'avif' | 'svg';
export type UploadArea = Exclude<Area, 'ignored-reserved'>;

export type SkipCode =
  | 'UNSUPPORTED_FORMAT'
  | 'TOO_LARGE'
  | 'EMPTY'
  | 'TRUNCATED'
  | 'CORRUPT'
  | 'UNREADABLE'
  | 'SVG_OUTSIDE_LOGO'
  | 'UNSAFE_SVG'
  | 'NOT_A_FILE';

export type Verdict =
  | { status: 'accepted'; kind: AcceptedKind; mime: string }
  | { status: 'skipped'; code: SkipCode; reason: string };

export type Classification =
  | { status: 'accepted'; kind: AcceptedKind; mime: string; stat: FileStat }
  // Recorded with the reason; not retried until the file's size or mtime change.
  | { status: 'skipped'; code: SkipCode; reason: string; stat?: FileStat }
  // Another program holds the file: try again later, with a backoff.
  | { status: 'locked'; code: string; reason: string }
  // The file changed while it was read: wait until it is stable again.
  | { status: 'changed' }
  | { status: 'gone' };

const RASTER: ReadonlyMap<string, { kind: AcceptedKind; mime: string }> = new Map([
  ['png', { kind: 'png', mime: 'image/png' }],
  ['apng', { kind: 'png', mime: 'image/png' }], // an animated PNG is still a PNG
  ['jpg', { kind: 'jpeg', mime: 'image/jpeg' }],
  ['webp', { kind: 'webp', mime: 'image/webp' }],
  ['avif', { kind: 'avif', mime: 'image/avif' }],
]);

const STRUCTURE: Record<Exclude<AcceptedKind, 'svg'>, (b: Uint8Array) => StructureCheck> = {
  png: checkPng,
  jpeg: checkJpeg,
  webp: checkWebp,
  avif: checkAvif,
};

const FORMAT_NAMES: Record<string, string> = {
  jpg: 'JPEG',
  tif: 'TIFF',
  heic: 'HEIC',
  jxl: 'JPEG XL',
  ico: 'ICO',
  bmp: 'BMP',
  gif: 'GIF',
  psd: 'Photoshop (PSD)',
  pdf: 'PDF',
  xml: 'XML',
};

export function acceptedFormats(area: UploadArea): string {
  return area === 'logo' ? 'PNG, JPEG, WebP, SVG or AVIF' : 'PNG, JPEG, WebP or AVIF';
}

function formatSize(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB (${bytes.toLocaleString('en-US')} bytes)`;
}

const skip = (code: SkipCode, reason: string): Verdict => ({ status: 'skipped', code, reason });

function tooLarge(size: number): Verdict {
  return skip(
    'TOO_LARGE',
    `${formatSize(size)} is over the 10 MB limit (${MAX_UPLOAD_BYTES.toLocaleString('en-US')} bytes)`,
  );
}

const EMPTY = skip('EMPTY', 'The file is empty (0 bytes)');

type FileTypeModule = typeof FileType;
let fileType: Promise<FileTypeModule> | undefined;

/**
 * The file-type parser (some 35 modules), loaded when first needed: PNG, JPEG and WebP are
 * told by their signatures (raster-signature.ts), so a folder of them never loads it.
 */
export function loadFileType(): Promise<FileTypeModule> {
  return (fileType ??= import('file-type'));
}

/** The verdict on a whole file's bytes, for a file found in `area`. */
export async function classifyBytes(bytes: Uint8Array, area: UploadArea): Promise<Verdict> {
  if (bytes.length === 0) return EMPTY;
  if (bytes.length > MAX_UPLOAD_BYTES) return tooLarge(bytes.length);
  const ext =
    rasterBySignature(bytes) ?? (await (await loadFileType()).fileTypeFromBuffer(bytes))?.ext;
  const raster = ext === undefined ? undefined : RASTER.get(ext);
  if (raster && raster.kind !== 'svg') {
    const check = STRUCTURE[raster.kind](bytes);
    if (!check.complete) {
      return skip(
        check.code,
        check.code === 'TRUNCATED'
          ? `The file is incomplete: ${check.detail} (an interrupted copy or download?)`
          : `The file is damaged: ${check.detail}`,
      );
    }
    return { status: 'accepted', ...raster };
  }
  if (ext === undefined || ext === 'xml') {
    const svg = sniffSvg(bytes);
    if (svg.svg) {
      if (area !== 'logo') {
        return skip(
          'SVG_OUTSIDE_LOGO',
          `SVG is accepted only in Logo/, as the brand's logo; the Library takes ${acceptedFormats('library-upload')}`,
        );
      }
      if (svg.problem?.code === 'TRUNCATED') {
        return skip('TRUNCATED', `The file is incomplete: ${svg.problem.detail}`);
      }
      if (svg.problem?.code === 'UNSAFE_SVG') {
        return skip('UNSAFE_SVG', `The SVG is not accepted: ${svg.problem.detail}`);
      }
      return { status: 'accepted', kind: 'svg', mime: 'image/svg+xml' };
    }
  }
  const name =
    ext === undefined
      ? 'This file (format not recognised)'
      : (FORMAT_NAMES[ext] ?? ext.toUpperCase());
  return skip('UNSUPPORTED_FORMAT', `${name} is not accepted: ${acceptedFormats(area)}`);
}

/** The verdict a file's size alone gives (empty, over the limit), if any. */
export function verdictBySize(size: number): Verdict | undefined {
  if (size === 0) return EMPTY;
  if (size > MAX_UPLOAD_BYTES) return tooLarge(size);
  return undefined;
}

/** Reads and classifies one file; its stat is the one its bytes were read under. */
export async function classifyFile(absPath: string, area: UploadArea): Promise<Classification> {
  let handle;
  try {
    handle = await open(absPath, READ_FLAGS);
  } catch (error) {
    return fromIoError(error);
  }
  try {
    const before = await handle.stat();
    const stat = toFileStat(before);
    if (!before.isFile()) {
      return { status: 'skipped', code: 'NOT_A_FILE', reason: 'This is not a regular file', stat };
    }
    if (before.size === 0) return { ...EMPTY, stat };
    if (before.size > MAX_UPLOAD_BYTES) return { ...tooLarge(before.size), stat };
    // One byte more than the size, so a file still growing is noticed.
    const buffer = Buffer.allocUnsafe(before.size + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const after = toFileStat(await handle.stat());
    if (filled !== before.size || !sameFileStat(stat, after)) return { status: 'changed' };
    return { ...(await classifyBytes(buffer.subarray(0, filled), area)), stat };
  } catch (error) {
    return fromIoError(error);
  } finally {
    await handle.close();
  }
}

function fromIoError(error: unknown): Classification {
  const failure = ioFailure(error);
  switch (failure.kind) {
    case 'gone':
      return { status: 'gone' };
    case 'locked':
      return { status: 'locked', code: failure.code, reason: failure.reason };
    default:
      return { status: 'skipped', code: 'UNREADABLE', reason: failure.reason };
  }
}

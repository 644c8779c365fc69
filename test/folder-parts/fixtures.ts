// Small real image bytes for the folder tests, built here rather than checked in so each
// test says what it feeds the code: a PNG with correct CRCs, a JPEG with its segments,
// WebP and AVIF containers with correct sizes, the classic 1x1 GIF, SVG text.
import { crc32, deflateSync } from 'node:zlib';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

function u32be(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const typeBytes = Buffer.from(type, 'latin1');
  return Buffer.concat([
    u32be(data.length),
    typeBytes,
    data,
    u32be(crc32(Buffer.concat([typeBytes, data]))),
  ]);
}

/** A valid RGB PNG; `seed` varies the pixels so that two PNGs can differ in bytes. */
export function makePng(opts: { width?: number; height?: number; seed?: number } = {}): Buffer {
  const width = opts.width ?? 2;
  const height = opts.height ?? 2;
  const seed = opts.seed ?? 0;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let i = 1; i <= width * 3; i++) raw[row + i] = (seed * 31 + y * 7 + i * 13) & 0xff;
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG of exactly `totalBytes` (a private ancillary chunk pads it), for size limits. */
export function makePngOfSize(totalBytes: number): Buffer {
  const base = makePng();
  const iendLength = 12;
  const padLength = totalBytes - base.length - 12;
  if (padLength < 0) throw new Error(`a PNG cannot be as small as ${totalBytes} bytes`);
  const pad = pngChunk('peDd', Buffer.alloc(padLength, 0x5a));
  const body = base.subarray(0, base.length - iendLength);
  return Buffer.concat([body, pad, base.subarray(base.length - iendLength)]);
}

function jpegSegment(marker: number, data: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/** A baseline 8x8 greyscale JPEG: SOI, APP0, DQT, SOF0, DHT, SOS, entropy data, EOI. */
export function makeJpeg(seed = 0): Buffer {
  const jfif = Buffer.from([0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const dqt = Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)]);
  const sof0 = Buffer.from([8, 0, 8, 0, 8, 1, 1, 0x11, 0]);
  // One DC code (category 0) and one AC code (EOB), each of length 1.
  const dhtDc = Buffer.concat([Buffer.from([0x00, 1]), Buffer.alloc(15), Buffer.from([0])]);
  const dhtAc = Buffer.concat([Buffer.from([0x10, 1]), Buffer.alloc(15), Buffer.from([0])]);
  const sos = Buffer.from([1, 1, 0x00, 0, 63, 0]);
  // Entropy-coded data with a stuffed 0xFF 0x00 and a restart-like byte pattern inside.
  const entropy = Buffer.from([0x00, (seed * 17) & 0x7f, 0xff, 0x00, 0x3f]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    jpegSegment(0xe0, jfif),
    jpegSegment(0xdb, dqt),
    jpegSegment(0xc0, sof0),
    jpegSegment(0xc4, dhtDc),
    jpegSegment(0xc4, dhtAc),
    jpegSegment(0xda, sos),
    entropy,
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** The 1x1 lossless WebP that browsers' feature tests use. */
export function makeWebp(): Buffer {
  return Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
}

function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32be(body.length + 8), Buffer.from(type, 'latin1'), body]);
}

/** An AVIF container: ftyp (avif, mif1, miaf), meta with a `pict` handler, mdat. */
export function makeAvif(): Buffer {
  const ftyp = box(
    'ftyp',
    Buffer.from('avif', 'latin1'),
    u32be(0),
    Buffer.from('avifmif1miaf', 'latin1'),
  );
  const hdlr = box('hdlr', u32be(0), u32be(0), Buffer.from('pict', 'latin1'), Buffer.alloc(13));
  const meta = box('meta', u32be(0), hdlr);
  const mdat = box('mdat', Buffer.from([0x12, 0x00, 0x0a, 0x08, 0x18, 0x00, 0x36, 0x88]));
  return Buffer.concat([ftyp, meta, mdat]);
}

/** The classic 1x1 transparent GIF (43 bytes). */
export function makeGif(): Buffer {
  return Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
}

export function makeSvg(opts: { xmlDeclaration?: boolean } = {}): Buffer {
  const head = opts.xmlDeclaration ? '<?xml version="1.0" encoding="UTF-8"?>\n' : '';
  return Buffer.from(
    `${head}<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">` +
      `<rect width="10" height="10" fill="#c00"/></svg>\n`,
    'utf8',
  );
}

/** A temp dir removed by the returned function (for afterEach). */
export async function makeTempDir(
  prefix = 'brand-sync-folders-',
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

// Encodes real PNG files: of a solid colour (the picture the simulator serves for generated
// images and for AVIF uploads, which the service stores converted to PNG), or of any pixels
// (the demo's drawn pictures and logos, simulator/demo-art.ts).
import { crc32, deflateSync } from 'node:zlib';

export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const w = Math.max(1, Math.floor(width));
  const h = Math.max(1, Math.floor(height));
  const row = Buffer.alloc(1 + w * 3);
  for (let x = 0; x < w; x++) {
    row[1 + x * 3] = rgb[0];
    row[2 + x * 3] = rgb[1];
    row[3 + x * 3] = rgb[2];
  }
  const raw = Buffer.alloc(row.length * h);
  for (let y = 0; y < h; y++) row.copy(raw, y * row.length);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Encodes 8-bit pixels (3 channels RGB or 4 RGBA, row after row) as a PNG. Each row takes the
 * filter that leaves the smallest differences (the usual heuristic), so gradients and flat
 * shapes compress to a few kilobytes.
 */
export function encodePng(
  width: number,
  height: number,
  pixels: Uint8Array,
  channels: 3 | 4,
): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1)
    throw new Error(`a PNG needs a positive whole size, not ${width}×${height}`);
  const stride = width * channels;
  if (pixels.length !== stride * height)
    throw new Error(
      `${width}×${height}×${channels} needs ${stride * height} bytes, not ${pixels.length}`,
    );
  const raw = Buffer.alloc((stride + 1) * height);
  const trial = [Buffer.alloc(stride), Buffer.alloc(stride), Buffer.alloc(stride)];
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    const prev = y === 0 ? -1 : row - stride;
    let best = 0;
    let bestScore = Infinity;
    for (let f = 0; f < 3; f++) {
      const out = trial[f] as Buffer;
      let score = 0;
      for (let i = 0; i < stride; i++) {
        const px = pixels[row + i] as number;
        const left = i >= channels ? (pixels[row + i - channels] as number) : 0;
        const up = prev >= 0 ? (pixels[prev + i] as number) : 0;
        const v = (f === 0 ? px : f === 1 ? px - left : px - up) & 0xff;
        out[i] = v;
        score += v < 128 ? v : 256 - v;
      }
      if (score < bestScore) {
        bestScore = score;
        best = f;
      }
    }
    const at = y * (stride + 1);
    raw[at] = best; // 0 None, 1 Sub, 2 Up
    (trial[best] as Buffer).copy(raw, at + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = channels === 4 ? 6 : 2; // RGBA or RGB
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * The PNG grown to exactly `size` bytes by a private ancillary chunk before IEND, which
 * decoders skip: the file is still the same picture, and as large as its record says. Null
 * when the picture does not fit (a chunk takes at least 12 bytes).
 */
export function padPng(png: Buffer, size: number): Buffer | null {
  if (png.length === size) return png;
  const extra = size - png.length - 12;
  if (extra < 0) return null;
  const iend = png.length - 12;
  return Buffer.concat([
    png.subarray(0, iend),
    chunk('paDd', Buffer.alloc(extra)),
    png.subarray(iend),
  ]);
}

/** The width and height a PNG's IHDR states, or null when the bytes are not a PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (
    b.length < 24 ||
    !b.subarray(0, 8).equals(SIGNATURE) ||
    b.toString('latin1', 12, 16) !== 'IHDR'
  )
    return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A colour from a hex string like #1F3A5F. */
export function hexToRgb(hex: string): [number, number, number] {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return [128, 128, 128];
  return [parseInt(m[1] as string, 16), parseInt(m[2] as string, 16), parseInt(m[3] as string, 16)];
}

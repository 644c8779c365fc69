// The bytes served for a media item or image. Uploaded items serve what was uploaded; seeded
// and generated ones get deterministic bytes of exactly their fileSize, with real magic bytes
// (a real small PNG for images, padded; an MP4 ftyp box; an ID3 header).
import type { MediaRecord } from './library.ts';
import { solidPng } from './png.ts';
import { hashString } from './prng.ts';

export function resolveContent(content: Buffer | (() => Buffer)): Buffer {
  return typeof content === 'function' ? content() : content;
}

export function mediaBytes(rec: MediaRecord): Buffer {
  if (rec.content) return resolveContent(rec.content);
  return syntheticBytes(rec.id, rec.type, rec.fileSize);
}

export function syntheticBytes(id: string, type: string, size: number): Buffer {
  const h = hashString(id);
  let head: Buffer;
  if (type === 'image') {
    head = solidPng(16, 9, [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff]);
  } else if (type === 'video') {
    head = Buffer.from('00000018667479706d703432000000006d70343269736f6d', 'hex'); // ftyp mp42
  } else if (type === 'audio') {
    head = Buffer.from('4944330400000000000a', 'hex'); // ID3v2.4 header
  } else {
    head = Buffer.alloc(0);
  }
  const out = Buffer.alloc(size, (h >>> 24) & 0xff);
  head.copy(out, 0, 0, Math.min(head.length, size));
  // A light pattern after the header, so the bytes are not one repeated value.
  for (let i = head.length; i < size; i += 997) out[i] = (i * 31 + h) & 0xff;
  return out;
}

// Is an image file complete? An interrupted copy or download leaves a file whose first
// bytes look right: each check walks the container just far enough to find its end
// (PNG's IEND chunk, JPEG's EOI marker, WebP's RIFF size, AVIF's boxes). Pixels are
// not decoded: the service does that.

export type StructureCheck =
  { complete: true } | { complete: false; code: 'TRUNCATED' | 'CORRUPT'; detail: string };

const COMPLETE: StructureCheck = { complete: true };
const truncated = (detail: string): StructureCheck => ({
  complete: false,
  code: 'TRUNCATED',
  detail,
});
const corrupt = (detail: string): StructureCheck => ({ complete: false, code: 'CORRUPT', detail });

function ascii(b: Uint8Array, at: number, length: number): string {
  return Buffer.from(b.buffer, b.byteOffset + at, length).toString('latin1');
}

function u32be(b: Uint8Array, at: number): number {
  return (
    (((b[at] ?? 0) << 24) |
      ((b[at + 1] ?? 0) << 16) |
      ((b[at + 2] ?? 0) << 8) |
      (b[at + 3] ?? 0)) >>>
    0
  );
}

/** PNG: chunks (length, type, data, CRC) follow the signature until IEND. */
export function checkPng(b: Uint8Array): StructureCheck {
  let at = 8;
  while (true) {
    if (at + 8 > b.length) return truncated('the PNG ends before its IEND chunk');
    const length = u32be(b, at);
    if (length > 0x7fffffff) return corrupt(`a PNG chunk claims ${length} bytes`);
    const type = ascii(b, at + 4, 4);
    const end = at + 12 + length;
    if (end > b.length) return truncated(`the PNG's ${type} chunk is cut short`);
    if (type === 'IEND') return COMPLETE;
    at = end;
  }
}

/**
 * JPEG: marker segments after SOI; after each SOS the entropy-coded data runs until the
 * next marker that is neither a stuffed 0xFF00 nor a restart (RST0-7); EOI ends the image.
 * Progressive JPEGs have several scans, which this follows.
 */
export function checkJpeg(b: Uint8Array): StructureCheck {
  let at = 2;
  while (true) {
    at = b.indexOf(0xff, at);
    if (at === -1) return truncated('the JPEG ends before its EOI marker');
    while (b[at] === 0xff) at++; // fill bytes
    if (at >= b.length) return truncated('the JPEG ends before its EOI marker');
    const marker = b[at++] as number;
    if (marker === 0xd9) return COMPLETE;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) continue; // no length field
    if (at + 2 > b.length) return truncated('the JPEG ends inside a segment header');
    const length = ((b[at] as number) << 8) | (b[at + 1] as number);
    if (length < 2) return corrupt('a JPEG segment has an impossible length');
    at += length;
    if (at > b.length) return truncated('a JPEG segment is cut short');
    if (marker === 0xda) {
      // Entropy-coded data: skip to the first 0xFF that starts a real marker.
      while (true) {
        at = b.indexOf(0xff, at);
        if (at === -1 || at + 1 >= b.length) {
          return truncated('the JPEG image data is cut short (no EOI marker)');
        }
        const next = b[at + 1] as number;
        if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) at += 1;
        else break;
      }
    }
  }
}

/** WebP: the RIFF header states the size of everything that follows it. */
export function checkWebp(b: Uint8Array): StructureCheck {
  if (b.length < 12) return truncated('the WebP ends inside its header');
  const riffSize =
    ((b[4] as number) |
      ((b[5] as number) << 8) |
      ((b[6] as number) << 16) |
      ((b[7] as number) << 24)) >>>
    0;
  const expected = 8 + riffSize;
  if (b.length < expected) {
    return truncated(`the WebP has ${b.length} of its ${expected} bytes`);
  }
  return COMPLETE;
}

/**
 * AVIF (ISO BMFF): top-level boxes must tile the file, and an image needs its `meta` box
 * and its data (an `mdat` box, or an `idat` inside `meta`).
 */
export function checkAvif(b: Uint8Array): StructureCheck {
  let at = 0;
  let meta: { start: number; end: number } | undefined;
  let hasMdat = false;
  while (at < b.length) {
    if (at + 8 > b.length) return truncated('the AVIF ends inside a box header');
    let size = u32be(b, at);
    const type = ascii(b, at + 4, 4);
    if (size === 1) {
      if (at + 16 > b.length) return truncated('the AVIF ends inside a box header');
      size = u32be(b, at + 8) * 2 ** 32 + u32be(b, at + 12);
    } else if (size === 0) {
      size = b.length - at; // the last box runs to the end of the file
    }
    if (size < 8) return corrupt(`the AVIF's ${type} box has an impossible size`);
    if (at + size > b.length) return truncated(`the AVIF's ${type} box is cut short`);
    if (type === 'meta') meta = { start: at, end: at + size };
    if (type === 'mdat') hasMdat = true;
    at += size;
  }
  if (meta === undefined) return truncated('the AVIF has no meta box');
  if (
    !hasMdat &&
    Buffer.from(b.buffer, b.byteOffset + meta.start, meta.end - meta.start).indexOf('idat') === -1
  ) {
    return truncated('the AVIF has no image data (no mdat box)');
  }
  return COMPLETE;
}

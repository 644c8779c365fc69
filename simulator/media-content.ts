// The bytes served for a media item or image. Uploaded items serve what was uploaded; seeded
// and generated ones get deterministic bytes of exactly their fileSize that a browser really
// plays: a real small PNG for images (padded), a WebM of one 16×16 VP8 frame lasting the
// item's duration for videos (padded with an EBML Void element), and an 8 kHz 8-bit mono WAV
// for audio (the padding is its samples). Each stays a valid file at any size from its minimum.
import type { MediaRecord } from './library.ts';
import { solidPng } from './png.ts';
import { hashString } from './prng.ts';

export function resolveContent(content: Buffer | (() => Buffer)): Buffer {
  return typeof content === 'function' ? content() : content;
}

export function mediaBytes(rec: MediaRecord): Buffer {
  if (rec.content) return resolveContent(rec.content);
  return syntheticBytes(rec.id, rec.type, rec.fileSize, rec.durationMs);
}

export function syntheticBytes(
  id: string,
  type: string,
  size: number,
  durationMs: number | null = null,
): Buffer {
  const h = hashString(id);
  if (type === 'audio' && size >= WAV_HEADER + 1) return wavBytes(size, h);
  if (type === 'video') {
    const video = webmBytes(size, durationMs ?? 5000);
    if (video !== null) return video;
  }
  const head =
    type === 'image'
      ? solidPng(16, 9, [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff])
      : Buffer.alloc(0);
  const out = Buffer.alloc(size, (h >>> 24) & 0xff);
  head.copy(out, 0, 0, Math.min(head.length, size));
  // A light pattern after the header, so the bytes are not one repeated value.
  for (let i = head.length; i < size; i += 997) out[i] = (i * 31 + h) & 0xff;
  return out;
}

const WAV_HEADER = 44;
const WAV_RATE = 8000;

/** A RIFF WAVE file of exactly `size` bytes: a quiet tone, its pitch drawn from the item. */
function wavBytes(size: number, h: number): Buffer {
  const samples = size - WAV_HEADER;
  const out = Buffer.alloc(size);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(size - 8, 4);
  out.write('WAVEfmt ', 8, 'ascii');
  out.writeUInt32LE(16, 16); // fmt chunk size
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(WAV_RATE, 24);
  out.writeUInt32LE(WAV_RATE, 28); // bytes per second (1 byte per sample)
  out.writeUInt16LE(1, 32); // block align
  out.writeUInt16LE(8, 34); // bits per sample
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(samples, 40);
  const hz = 220 + (h % 440);
  for (let i = 0; i < samples; i++) {
    out[WAV_HEADER + i] = 128 + Math.round(24 * Math.sin((2 * Math.PI * hz * i) / WAV_RATE));
  }
  return out;
}

// One 16×16 VP8 key frame (encoded by Chromium's own MediaRecorder for this purpose).
const VP8_KEY_FRAME = Buffer.from(
  'f002009d012a1000100000070885858899848801241013ad501fc01fd0106a6f70feff2ea9fff26bc35daf7fe4d97ff8e64dcc313fe35700',
  'hex',
);

/** An EBML element: its ID's bytes, the size as an 8-byte vint, then the data. */
function ebml(id: number[], ...data: Buffer[]): Buffer {
  const body = Buffer.concat(data);
  const size = Buffer.alloc(8);
  size.writeUInt8(0x01, 0);
  size.writeUIntBE(body.length, 2, 6);
  return Buffer.concat([Buffer.from(id), size, body]);
}

const uint = (value: number): Buffer => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  return out;
};

function float64(value: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeDoubleBE(value);
  return out;
}

/** A WebM of exactly `size` bytes that lasts `durationMs`, or null when size is too small. */
function webmBytes(size: number, durationMs: number): Buffer | null {
  const header = ebml(
    [0x1a, 0x45, 0xdf, 0xa3],
    ebml([0x42, 0x86], uint(1)), // EBMLVersion
    ebml([0x42, 0xf7], uint(1)), // EBMLReadVersion
    ebml([0x42, 0xf2], uint(4)), // EBMLMaxIDLength
    ebml([0x42, 0xf3], uint(8)), // EBMLMaxSizeLength
    ebml([0x42, 0x82], Buffer.from('webm', 'ascii')), // DocType
    ebml([0x42, 0x87], uint(2)), // DocTypeVersion
    ebml([0x42, 0x85], uint(2)), // DocTypeReadVersion
  );
  const info = ebml(
    [0x15, 0x49, 0xa9, 0x66],
    ebml([0x2a, 0xd7, 0xb1], uint(1_000_000)), // TimecodeScale: milliseconds
    ebml([0x44, 0x89], float64(Math.max(1, durationMs))), // Duration
    ebml([0x4d, 0x80], Buffer.from('brand-sync-simulator', 'ascii')), // MuxingApp
    ebml([0x57, 0x41], Buffer.from('brand-sync-simulator', 'ascii')), // WritingApp
  );
  const tracks = ebml(
    [0x16, 0x54, 0xae, 0x6b],
    ebml(
      [0xae],
      ebml([0xd7], uint(1)), // TrackNumber
      ebml([0x73, 0xc5], uint(1)), // TrackUID
      ebml([0x83], uint(1)), // TrackType: video
      ebml([0x86], Buffer.from('V_VP8', 'ascii')), // CodecID
      ebml([0xe0], ebml([0xb0], uint(16)), ebml([0xba], uint(16))), // Video: 16×16
    ),
  );
  const cluster = ebml(
    [0x1f, 0x43, 0xb6, 0x75],
    ebml([0xe7], uint(0)), // Timecode
    // SimpleBlock: track 1, relative time 0, key frame.
    ebml([0xa3], Buffer.from([0x81, 0x00, 0x00, 0x80]), VP8_KEY_FRAME),
  );
  const content = Buffer.concat([info, tracks, cluster]);
  const VOID_MIN = 9; // an empty Void element: its ID and an 8-byte size
  const segmentHead = 12; // the Segment's ID (4) and 8-byte size
  const bare = header.length + segmentHead + content.length;
  if (size < bare + VOID_MIN)
    return size === bare ? Buffer.concat([header, ebml([0x18, 0x53, 0x80, 0x67], content)]) : null;
  const padding = ebml([0xec], Buffer.alloc(size - bare - VOID_MIN));
  return Buffer.concat([header, ebml([0x18, 0x53, 0x80, 0x67], content, padding)]);
}

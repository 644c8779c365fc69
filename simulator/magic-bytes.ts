// Recognises an uploaded file by its bytes, never by its name or declared type, and reads its
// pixel size where the header carries it.

export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'avif' | 'svg' | 'gif' | 'heic' | 'pdf';

export interface Detected {
  format: ImageFormat;
  mimeType: string;
  width: number | null;
  height: number | null;
}

const MIME: Record<ImageFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  gif: 'image/gif',
  heic: 'image/heic',
  pdf: 'application/pdf',
};

export function detect(buf: Buffer): Detected | null {
  const format = detectFormat(buf);
  if (!format) return null;
  const size = dimensions(format, buf);
  return { format, mimeType: MIME[format], width: size?.[0] ?? null, height: size?.[1] ?? null };
}

function detectFormat(b: Buffer): ImageFormat | null {
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a)
    return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (
    b.length >= 12 &&
    b.toString('latin1', 0, 4) === 'RIFF' &&
    b.toString('latin1', 8, 12) === 'WEBP'
  ) {
    return 'webp';
  }
  if (
    b.length >= 6 &&
    (b.toString('latin1', 0, 6) === 'GIF87a' || b.toString('latin1', 0, 6) === 'GIF89a')
  ) {
    return 'gif';
  }
  if (b.length >= 5 && b.toString('latin1', 0, 5) === '%PDF-') return 'pdf';
  if (b.length >= 12 && b.toString('latin1', 4, 8) === 'ftyp') {
    const boxSize = Math.min(b.readUInt32BE(0), b.length);
    const brands: string[] = [b.toString('latin1', 8, 12)];
    for (let i = 16; i + 4 <= boxSize; i += 4) brands.push(b.toString('latin1', i, i + 4));
    if (brands.includes('avif') || brands.includes('avis')) return 'avif';
    if (brands.some((x) => ['heic', 'heix', 'mif1', 'msf1'].includes(x))) return 'heic';
    return null;
  }
  if (isSvg(b)) return 'svg';
  return null;
}

function isSvg(b: Buffer): boolean {
  let head = b.toString('utf8', 0, Math.min(b.length, 4096));
  if (head.charCodeAt(0) === 0xfeff) head = head.slice(1);
  head = head.trimStart();
  if (!head.startsWith('<')) return false;
  // Skip an XML declaration, comments and a doctype; the first element must be <svg.
  const rest = head.replace(
    /^(<\?xml[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*|<!DOCTYPE[\s\S]*?>\s*)*/i,
    '',
  );
  return /^<svg[\s>]/i.test(rest);
}

function dimensions(format: ImageFormat, b: Buffer): [number, number] | null {
  try {
    switch (format) {
      case 'png':
        return b.length >= 24 ? [b.readUInt32BE(16), b.readUInt32BE(20)] : null;
      case 'gif':
        return b.length >= 10 ? [b.readUInt16LE(6), b.readUInt16LE(8)] : null;
      case 'jpeg':
        return jpegSize(b);
      case 'webp':
        return webpSize(b);
      case 'avif':
      case 'heic': {
        const i = b.indexOf('ispe', 0, 'latin1');
        return i >= 0 && i + 16 <= b.length
          ? [b.readUInt32BE(i + 8), b.readUInt32BE(i + 12)]
          : null;
      }
      case 'svg':
        return svgSize(b);
      default:
        return null;
    }
  } catch {
    return null;
  }
}

function jpegSize(b: Buffer): [number, number] | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) {
      i++;
      continue;
    }
    const marker = b[i + 1] as number;
    if (marker === 0xff) {
      i++;
      continue;
    }
    const len = b.readUInt16BE(i + 2);
    const isSof =
      marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) return [b.readUInt16BE(i + 7), b.readUInt16BE(i + 5)];
    i += 2 + len;
  }
  return null;
}

function webpSize(b: Buffer): [number, number] | null {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && b.length >= 30)
    return [b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff];
  if (chunk === 'VP8L' && b.length >= 25) {
    const bits = b.readUInt32LE(21);
    return [(bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1];
  }
  if (chunk === 'VP8X' && b.length >= 30) return [b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1];
  return null;
}

function svgSize(b: Buffer): [number, number] | null {
  const head = b.toString('utf8', 0, Math.min(b.length, 4096));
  const tag = /<svg[^>]*>/i.exec(head)?.[0];
  if (!tag) return null;
  const w = /\swidth\s*=\s*["']\s*([\d.]+)(px)?\s*["']/i.exec(tag)?.[1];
  const h = /\sheight\s*=\s*["']\s*([\d.]+)(px)?\s*["']/i.exec(tag)?.[1];
  if (w && h) return [Math.round(Number(w)), Math.round(Number(h))];
  const vb = /\sviewBox\s*=\s*["']\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*["']/i.exec(
    tag,
  );
  if (vb) return [Math.round(Number(vb[1])), Math.round(Number(vb[2]))];
  return null;
}

// The accepted raster formats whose first bytes alone name them: PNG, JPEG and WebP, the
// files a designer drops by the thousand. Recognised here, they skip the file-type parser
// (some 35 modules for the hasher thread to load, and 0.05 to 0.2 ms a file of a CPU that the
// uploads share). Anything else, AVIF included (its ftyp box size can look like other
// formats' signatures), still goes to file-type, which names what it is. The answers are
// file-type's own for these signatures (test/folder-parts/raster-signature.test.ts).

/** file-type's `ext` for these formats. */
export type SignedRaster = 'png' | 'jpg' | 'webp';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;
/** The 13-byte IHDR chunk's length and type, which file-type requires first (else: not PNG). */
const IHDR = [0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52] as const;
const RIFF = [0x52, 0x49, 0x46, 0x46] as const;
const WEBP = [0x57, 0x45, 0x42, 0x50] as const;

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  for (let i = 0; i < signature.length; i++) if (bytes[offset + i] !== signature[i]) return false;
  return true;
}

/** The format these bytes begin with, when it is one of these; undefined: ask file-type. */
export function rasterBySignature(bytes: Uint8Array): SignedRaster | undefined {
  // A chunk after IHDR that claims over 2 GB makes file-type give up (undefined); the
  // structure check that follows calls such a file damaged instead, which it is.
  if (startsWith(bytes, PNG) && startsWith(bytes, IHDR, 8)) return 'png';
  // FF D8 FF F7 is JPEG-LS, another format; file-type needs the fourth byte too.
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return bytes[3] === 0xf7 ? undefined : 'jpg';
  }
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'webp';
  return undefined;
}

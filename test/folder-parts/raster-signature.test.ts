import { randomBytes } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { describe, expect, it } from 'vitest';
import { classifyBytes } from '../../main/engine/folder-parts/file-classifier.ts';
import { rasterBySignature } from '../../main/engine/folder-parts/raster-signature.ts';
import { makeAvif, makeGif, makeJpeg, makePng, makeSvg, makeWebp } from './fixtures.ts';

const hex = (s: string) => Buffer.from(s, 'hex');
const PNG_WITH_IHDR = hex('89504e470d0a1a0a0000000d49484452');

/** file-type's answer, with APNG as the PNG it is to us. */
async function fileTypeExt(bytes: Uint8Array): Promise<string | undefined> {
  const ext = (await fileTypeFromBuffer(bytes))?.ext;
  return ext === 'apng' ? 'png' : ext;
}

describe('rasterBySignature', () => {
  it('names PNG, JPEG and WebP as file-type does, and leaves AVIF and the rest to it', async () => {
    for (const [bytes, expected] of [
      [makePng(), 'png'],
      [makeJpeg(), 'jpg'],
      [makeWebp(), 'webp'],
      [makeAvif(), undefined],
      [makeGif(), undefined],
      [makeSvg(), undefined],
    ] as const) {
      expect(rasterBySignature(bytes)).toBe(expected);
      if (expected !== undefined) expect(await fileTypeExt(bytes)).toBe(expected);
    }
  });

  it('agrees with file-type on every signature it answers, whatever follows', async () => {
    const heads = [
      PNG_WITH_IHDR,
      hex('89504e470d0a1a0a'), // no IHDR first: file-type's to judge
      hex('89504e470d0a1a0a0000000d43674249'), // CgBI (Apple's PNG) first: the same
      hex('ffd8ff'),
      hex('ffd8fff7'), // JPEG-LS, not JPEG
      Buffer.from('RIFF\0\0\0\0WEBP', 'latin1'),
      Buffer.from('RIFF\0\0\0\0WAVE', 'latin1'),
    ];
    let answered = 0;
    for (const head of heads) {
      for (let length = 0; length < 120; length += 7) {
        const bytes = Buffer.concat([head, randomBytes(length)]);
        const fast = rasterBySignature(bytes);
        if (fast === undefined) continue;
        answered++;
        const slow = await fileTypeExt(bytes);
        // The one difference: a PNG chunk after IHDR claiming over 2 GB makes file-type give
        // up; the structure check calls that file damaged (below).
        if (fast === 'png' && slow === undefined) continue;
        expect(slow, `${bytes.subarray(0, 16).toString('hex')}`).toBe(fast);
      }
    }
    expect(answered).toBeGreaterThan(40);
  });

  it('leaves short and foreign bytes to file-type', () => {
    expect(rasterBySignature(new Uint8Array(0))).toBeUndefined();
    expect(rasterBySignature(hex('ffd8'))).toBeUndefined();
    expect(rasterBySignature(hex('ffd8ff'))).toBeUndefined(); // the fourth byte decides
    expect(rasterBySignature(hex('ffd8fff7'))).toBeUndefined();
    expect(rasterBySignature(hex('89504e470d0a1a0a'))).toBeUndefined();
    expect(rasterBySignature(Buffer.from('RIFF\0\0\0\0WEB', 'latin1'))).toBeUndefined();
  });

  it('calls a PNG whose chunk claims over 2 GB damaged, where file-type names nothing', async () => {
    const bytes = Buffer.concat([
      PNG_WITH_IHDR,
      Buffer.alloc(13 + 4), // IHDR's data and CRC
      hex('fffffff0'),
      Buffer.from('tEXt', 'latin1'),
      Buffer.alloc(16),
    ]);
    expect(await fileTypeFromBuffer(bytes)).toBeUndefined();
    expect(await classifyBytes(bytes, 'library-upload')).toEqual({
      status: 'skipped',
      code: 'CORRUPT',
      reason: 'The file is damaged: a PNG chunk claims 4294967280 bytes',
    });
  });

  it('still names a JPEG-LS file as file-type does', async () => {
    const bytes = Buffer.concat([hex('ffd8fff7'), Buffer.alloc(32)]);
    expect(await classifyBytes(bytes, 'library-upload')).toMatchObject({
      status: 'skipped',
      code: 'UNSUPPORTED_FORMAT',
      reason: expect.stringMatching(/^JLS is not accepted/),
    });
  });
});

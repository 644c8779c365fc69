import { spawnSync } from 'node:child_process';
import { chmod, mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  classifyBytes,
  classifyFile,
  MAX_UPLOAD_BYTES,
} from '../../main/engine/folder-parts/file-classifier.ts';
import {
  checkAvif,
  checkJpeg,
  checkPng,
  checkWebp,
} from '../../main/engine/folder-parts/image-structure.ts';
import {
  makeAvif,
  makeGif,
  makeJpeg,
  makePng,
  makePngOfSize,
  makeSvg,
  makeTempDir,
  makeWebp,
} from './fixtures.ts';

describe('classifyBytes', () => {
  it.each([
    ['PNG', makePng(), 'png', 'image/png'],
    ['JPEG', makeJpeg(), 'jpeg', 'image/jpeg'],
    ['WebP', makeWebp(), 'webp', 'image/webp'],
    ['AVIF', makeAvif(), 'avif', 'image/avif'],
  ])('accepts %s anywhere', async (_name, bytes, kind, mime) => {
    for (const area of ['library-upload', 'logo'] as const) {
      expect(await classifyBytes(bytes, area)).toEqual({ status: 'accepted', kind, mime });
    }
  });

  it('accepts SVG in Logo/ only, with or without an XML declaration', async () => {
    for (const svg of [makeSvg(), makeSvg({ xmlDeclaration: true })]) {
      expect(await classifyBytes(svg, 'logo')).toEqual({
        status: 'accepted',
        kind: 'svg',
        mime: 'image/svg+xml',
      });
      expect(await classifyBytes(svg, 'library-upload')).toMatchObject({
        status: 'skipped',
        code: 'SVG_OUTSIDE_LOGO',
      });
    }
  });

  it('names the format it refuses and the ones it takes', async () => {
    expect(await classifyBytes(makeGif(), 'library-upload')).toEqual({
      status: 'skipped',
      code: 'UNSUPPORTED_FORMAT',
      reason: 'GIF is not accepted: PNG, JPEG, WebP or AVIF',
    });
    expect(await classifyBytes(makeGif(), 'logo')).toMatchObject({
      reason: 'GIF is not accepted: PNG, JPEG, WebP, SVG or AVIF',
    });
    expect(await classifyBytes(Buffer.from('%PDF-1.7\n%…'), 'library-upload')).toMatchObject({
      code: 'UNSUPPORTED_FORMAT',
      reason: 'PDF is not accepted: PNG, JPEG, WebP or AVIF',
    });
    expect(await classifyBytes(Buffer.from('just some notes'), 'library-upload')).toMatchObject({
      code: 'UNSUPPORTED_FORMAT',
      reason: 'This file (format not recognised) is not accepted: PNG, JPEG, WebP or AVIF',
    });
    // XML that is not SVG stays unsupported, even in Logo/.
    expect(await classifyBytes(Buffer.from('<?xml version="1.0"?><doc/>'), 'logo')).toMatchObject({
      code: 'UNSUPPORTED_FORMAT',
    });
  });

  it('refuses an SVG that declares entities (no XML bomb reaches the service)', async () => {
    const bomb = Buffer.from(
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]>' +
        '<svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>',
    );
    expect(await classifyBytes(bomb, 'logo')).toMatchObject({
      status: 'skipped',
      code: 'UNSAFE_SVG',
    });
    const plainDoctype = Buffer.from(
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">' +
        '<svg xmlns="http://www.w3.org/2000/svg"/>',
    );
    expect(await classifyBytes(plainDoctype, 'logo')).toMatchObject({ status: 'accepted' });
  });

  it('catches a truncated SVG in Logo/', async () => {
    const svg = makeSvg();
    expect(await classifyBytes(svg.subarray(0, svg.length - 10), 'logo')).toMatchObject({
      code: 'TRUNCATED',
    });
  });

  it('says TOO_LARGE above 10,000,000 bytes and EMPTY at 0', async () => {
    expect(await classifyBytes(makePngOfSize(MAX_UPLOAD_BYTES), 'library-upload')).toMatchObject({
      status: 'accepted',
    });
    expect(await classifyBytes(makePngOfSize(MAX_UPLOAD_BYTES + 1), 'library-upload')).toEqual({
      status: 'skipped',
      code: 'TOO_LARGE',
      reason: '10.0 MB (10,000,001 bytes) is over the 10 MB limit (10,000,000 bytes)',
    });
    expect(await classifyBytes(Buffer.alloc(0), 'library-upload')).toMatchObject({ code: 'EMPTY' });
  });
});

describe('completeness checks', () => {
  // Every cut of a complete image must be caught, wherever it falls.
  it.each([
    ['PNG', makePng({ width: 4, height: 3 }), checkPng, 8],
    ['JPEG', makeJpeg(), checkJpeg, 2],
    ['WebP', makeWebp(), checkWebp, 0],
    ['AVIF', makeAvif(), checkAvif, 0],
  ])('%s: complete as made, incomplete at every shorter length', (_n, bytes, check, from) => {
    expect(check(bytes)).toEqual({ complete: true });
    for (let length = from; length < bytes.length; length++) {
      expect(check(bytes.subarray(0, length)), `cut at ${length}`).toMatchObject({
        complete: false,
      });
    }
  });

  it('accepts bytes after the end marker (some cameras append data)', () => {
    expect(checkPng(Buffer.concat([makePng(), Buffer.from('trailer')]))).toEqual({
      complete: true,
    });
    expect(checkJpeg(Buffer.concat([makeJpeg(), Buffer.alloc(16)]))).toEqual({ complete: true });
  });

  it('is not fooled by the EOI of an embedded EXIF thumbnail', () => {
    const thumb = makeJpeg(1);
    const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0, 0]), Buffer.from('Exif\0\0'), thumb]);
    app1.writeUInt16BE(app1.length - 2, 2);
    const main = makeJpeg(2);
    const withThumb = Buffer.concat([main.subarray(0, 2), app1, main.subarray(2)]);
    expect(checkJpeg(withThumb)).toEqual({ complete: true });
    expect(checkJpeg(withThumb.subarray(0, withThumb.length - 4))).toMatchObject({
      complete: false,
      code: 'TRUNCATED',
    });
  });

  it('follows the scans of a progressive JPEG', () => {
    const jpeg = makeJpeg();
    const eoi = jpeg.length - 2;
    const sosStart = jpeg.indexOf(Buffer.from([0xff, 0xda]));
    const secondScan = jpeg.subarray(sosStart, eoi);
    const progressive = Buffer.concat([jpeg.subarray(0, eoi), secondScan, jpeg.subarray(eoi)]);
    expect(checkJpeg(progressive)).toEqual({ complete: true });
  });

  it('calls impossible lengths corrupt', () => {
    const png = makePng();
    const bad = Buffer.from(png);
    bad.writeUInt32BE(0xfffffff0, 8);
    expect(checkPng(bad)).toMatchObject({ complete: false, code: 'CORRUPT' });
  });
});

describe('classifyFile on real files', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
  });
  afterEach(() => cleanup());

  async function put(name: string, bytes: Uint8Array): Promise<string> {
    const p = path.join(dir, name);
    await writeFile(p, bytes);
    return p;
  }

  it('judges by bytes, not by name: a GIF named .png', async () => {
    const result = await classifyFile(await put('photo.png', makeGif()), 'library-upload');
    expect(result).toMatchObject({
      status: 'skipped',
      code: 'UNSUPPORTED_FORMAT',
      reason: 'GIF is not accepted: PNG, JPEG, WebP or AVIF',
      stat: { size: 42 },
    });
    const png = await classifyFile(await put('photo.gif', makePng()), 'library-upload');
    expect(png).toMatchObject({ status: 'accepted', kind: 'png' });
  });

  it('refuses an 11 MiB PNG without reading it, and an empty file', async () => {
    const big = await put('big.png', makePngOfSize(11 * 1024 * 1024));
    expect(await classifyFile(big, 'library-upload')).toMatchObject({
      status: 'skipped',
      code: 'TOO_LARGE',
      reason: '11.5 MB (11,534,336 bytes) is over the 10 MB limit (10,000,000 bytes)',
    });
    expect(await classifyFile(await put('empty.png', Buffer.alloc(0)), 'logo')).toMatchObject({
      status: 'skipped',
      code: 'EMPTY',
      reason: 'The file is empty (0 bytes)',
    });
  });

  it('catches a truncated PNG', async () => {
    const png = makePngOfSize(50_000);
    const result = await classifyFile(
      await put('cut.png', png.subarray(0, 30_000)),
      'library-upload',
    );
    expect(result).toMatchObject({ status: 'skipped', code: 'TRUNCATED' });
    expect(result.status === 'skipped' && result.reason).toMatch(/incomplete.*cut short/);
  });

  it('refuses an SVG outside Logo/ and takes it inside', async () => {
    const p = await put('mark.svg', makeSvg());
    expect(await classifyFile(p, 'library-upload')).toMatchObject({
      status: 'skipped',
      code: 'SVG_OUTSIDE_LOGO',
    });
    expect(await classifyFile(p, 'logo')).toMatchObject({ status: 'accepted', kind: 'svg' });
  });

  it('says gone for a missing file and NOT_A_FILE for a folder or a FIFO (without hanging)', async () => {
    expect(await classifyFile(path.join(dir, 'missing.png'), 'logo')).toEqual({ status: 'gone' });
    await mkdir(path.join(dir, 'folder.png'));
    expect(await classifyFile(path.join(dir, 'folder.png'), 'logo')).toMatchObject({
      code: 'NOT_A_FILE',
    });
    const fifo = path.join(dir, 'pipe.png');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(await classifyFile(fifo, 'logo')).toMatchObject({ code: 'NOT_A_FILE' });
  });

  it('a file without read permission is UNREADABLE (checked as another user when root)', async () => {
    const p = await put('secret.png', makePng());
    await chmod(p, 0o000);
    const isRoot = process.getuid?.() === 0;
    if (!isRoot) {
      expect(await classifyFile(p, 'library-upload')).toMatchObject({
        status: 'skipped',
        code: 'UNREADABLE',
      });
      return;
    }
    // Root reads a mode-000 file anyway, so the mode alone proves nothing here…
    await (await open(p, 'r')).close();
    // …so the same code runs as `nobody`, for whom the mode holds.
    await chmod(dir, 0o755);
    const helper = fileURLToPath(new URL('./helpers/read-as-other-user.ts', import.meta.url));
    const child = spawnSync(process.execPath, [helper, p], {
      uid: 65534,
      gid: 65534,
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    const out = JSON.parse(child.stdout);
    expect(out.uid).toBe(65534);
    expect(out.classification).toMatchObject({
      status: 'skipped',
      code: 'UNREADABLE',
      reason: 'The file cannot be read: permission denied (EACCES)',
    });
    expect(out.hash).toMatchObject({ status: 'unreadable', code: 'EACCES' });
    expect(out.stability).toMatchObject({ status: 'unreadable', code: 'EACCES' });
  });
});

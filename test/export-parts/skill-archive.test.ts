// SkillArchive on its own: what it extracts from real writers' archives, and that its
// limits act while streaming (a lying entry never grows past its declared size on disk).
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { deflateRawSync } from 'node:zlib';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { ZipFile } from 'yazl';
import { ArchiveError } from '../../main/engine/export-parts/errors.ts';
import { SkillArchive } from '../../main/engine/export-parts/skill-archive.ts';
import { buildZip } from './raw-zip.ts';
import { pseudoRandomBytes, removeDir, sha256, snapshotTree, tempDir } from './skill-fixtures.ts';

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

async function extract(
  zip: Buffer,
  into = path.join(dir, 'out'),
): Promise<Awaited<ReturnType<SkillArchive['extractTo']>>> {
  const zipPath = path.join(dir, 'in.zip');
  await writeFile(zipPath, zip);
  await mkdir(into);
  const archive = await SkillArchive.open(zipPath);
  try {
    return await archive.extractTo(into);
  } finally {
    await archive.close();
  }
}

test('extracts a yazl archive with Zip64 records, folders, empty folders and non-ASCII names', async () => {
  const zip = new ZipFile();
  const logo = pseudoRandomBytes(5, 70_000);
  zip.addBuffer(Buffer.from('# Skill\n'), 'SKILL.md', { forceZip64Format: true });
  zip.addBuffer(logo, 'assets/logos/primär.png', { compress: false });
  zip.addEmptyDirectory('assets/empty');
  zip.addBuffer(Buffer.from('ok'), 'typography/日本語.md');
  zip.end({ forceZip64Format: true, comment: '' });
  const zipPath = path.join(dir, 'yazl.zip');
  await pipeline(zip.outputStream, createWriteStream(zipPath));

  const files = await extract(await readFile(zipPath));
  expect(files).toEqual([
    { path: 'SKILL.md', size: 8, sha256: sha256(Buffer.from('# Skill\n')) },
    { path: 'assets/logos/primär.png', size: logo.length, sha256: sha256(logo) },
    { path: 'typography/日本語.md', size: 2, sha256: sha256(Buffer.from('ok')) },
  ]);
  expect(await snapshotTree(path.join(dir, 'out'))).toEqual({
    'SKILL.md': `file:${sha256(Buffer.from('# Skill\n'))}`,
    assets: 'dir',
    'assets/empty': 'dir',
    'assets/logos': 'dir',
    'assets/logos/primär.png': `file:${sha256(logo)}`,
    typography: 'dir',
    'typography/日本語.md': `file:${sha256(Buffer.from('ok'))}`,
  });
});

test('decodes legacy CP437 names (no UTF-8 flag) before checking them', async () => {
  // 0x82 is "é" in CP437; as UTF-8 it would be an invalid byte.
  const files = await extract(
    buildZip([
      { name: Buffer.from([0x63, 0x61, 0x66, 0x82, 0x2e, 0x6d, 0x64]), data: 'x', flags: 0 },
    ]),
  );
  expect(files.map((f) => f.path)).toEqual(['café.md']);
});

test('a lying entry stops being written once it passes its declared size', async () => {
  const declared = 1000;
  const bomb = buildZip([
    { name: 'bomb.bin', data: Buffer.alloc(16 * 1024 * 1024), declaredSize: declared },
  ]);
  const error = await extract(bomb).catch((err: unknown) => err);
  expect(error).toBeInstanceOf(ArchiveError);
  expect((error as ArchiveError).code).toBe('LENGTH_MISMATCH');
  // extractTo leaves its folder to the caller, so what was written can be measured.
  expect((await stat(path.join(dir, 'out', 'bomb.bin'))).size).toBeLessThanOrEqual(declared);
});

test('opening checks the whole central directory before anything is written', async () => {
  const zipPath = path.join(dir, 'late.zip');
  await writeFile(
    zipPath,
    buildZip([
      { name: 'a.md', data: 'a' },
      { name: '../late.md', data: 'b' },
    ]),
  );
  const error = await SkillArchive.open(zipPath).catch((err: unknown) => err);
  expect((error as ArchiveError).code).toBe('ZIP_SLIP');
  expect(await snapshotTree(dir)).toEqual({ 'late.zip': expect.stringMatching(/^file:/) });
});

test('reports the declared totals before extraction', async () => {
  const zipPath = path.join(dir, 'totals.zip');
  await writeFile(
    zipPath,
    buildZip([
      { name: 'a/b.md', data: 'abc' },
      { name: 'c.bin', data: pseudoRandomBytes(1, 10), method: 0 },
    ]),
  );
  const archive = await SkillArchive.open(zipPath);
  await archive.close();
  expect(archive.totalBytes).toBe(13);
  expect(archive.files).toEqual([
    { path: 'a/b.md', size: 3 },
    { path: 'c.bin', size: 10 },
  ]);
  expect(archive.dirs).toEqual(['a']);
});

test('damaged deflate data fails (never hangs), data after the final block is ignored', async () => {
  const data = Buffer.from('brand voice '.repeat(40_000));
  const body = deflateRawSync(data);
  const badType = Buffer.from(body);
  badType[0] = 0xff; // a final block of the reserved type 3
  const cases: [string, Buffer, string][] = [
    ['bad block type', badType, 'CORRUPT'],
    ['cut short', body.subarray(0, body.length - 10), 'CORRUPT'],
    ['trailing bytes', Buffer.concat([body, Buffer.alloc(300_000, 7)]), 'ok'],
  ];
  for (const [label, compressedBody, expected] of cases) {
    const out = path.join(dir, label);
    const outcome = await extract(buildZip([{ name: 'voice.md', data, compressedBody }]), out).then(
      () => 'ok',
      (err: unknown) => (err as ArchiveError).code,
    );
    expect(outcome, label).toBe(expected);
  }
});

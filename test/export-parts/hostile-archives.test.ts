// The corpus of hostile archives: each is rejected as a whole with its own code and the
// name of the guilty entry, and leaves the sync root (the previous `Brand Skill/`, its
// bookkeeping and everything around it) byte-identical.
import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ArchiveError } from '../../main/engine/export-parts/errors.ts';
import type { ArchiveErrorCode } from '../../main/engine/export-parts/errors.ts';
import {
  installSkillArchive,
  readInstalledSkill,
} from '../../main/engine/export-parts/skill-install.ts';
import type { InstallSkillOptions } from '../../main/engine/export-parts/skill-install.ts';
import { MANIFEST_NAME } from '../../main/engine/export-parts/skill-layout.ts';
import { buildZip, MODE_FIFO, MODE_SYMLINK } from './raw-zip.ts';
import type { RawEntry } from './raw-zip.ts';
import { pseudoRandomBytes, removeDir, snapshotTree, tempDir } from './skill-fixtures.ts';

const OLD_SKILL = '11111111-1111-4111-8111-111111111111';
const NEW_SKILL = '22222222-2222-4222-8222-222222222222';

// Good entries first, so that an archive failing late has already written files to staging.
const good: RawEntry[] = [
  { name: 'SKILL.md', data: '# New skill\n'.repeat(100) },
  { name: 'assets/logo.png', data: pseudoRandomBytes(7, 30_000), method: 0 },
  { name: 'topics/colour.md', data: 'Use blue.\n'.repeat(500) },
];
const goodZip = (): Buffer => buildZip(good);

interface HostileCase {
  label: string;
  zip: () => Buffer;
  code: ArchiveErrorCode;
  /** The entry the error must name; undefined for whole-archive faults. */
  entry?: string;
  options?: Partial<InstallSkillOptions>;
}

const zeros = Buffer.alloc(8 * 1024 * 1024);

const corpus: HostileCase[] = [
  {
    label: 'zip-slip',
    zip: () => buildZip([...good, { name: 'assets/../../evil.txt', data: 'x' }]),
    code: 'ZIP_SLIP',
    entry: 'assets/../../evil.txt',
  },
  {
    label: 'zip-slip at the root',
    zip: () => buildZip([...good, { name: '../evil.txt', data: 'x' }]),
    code: 'ZIP_SLIP',
    entry: '../evil.txt',
  },
  {
    label: 'absolute path',
    zip: () => buildZip([...good, { name: '/tmp/evil.txt', data: 'x' }]),
    code: 'ABSOLUTE_PATH',
    entry: '/tmp/evil.txt',
  },
  {
    label: 'drive letter',
    zip: () => buildZip([...good, { name: 'C:/Windows/evil.txt', data: 'x' }]),
    code: 'DRIVE_LETTER',
    entry: 'C:/Windows/evil.txt',
  },
  {
    label: 'drive-relative path',
    zip: () => buildZip([...good, { name: 'c:evil.txt', data: 'x' }]),
    code: 'DRIVE_LETTER',
    entry: 'c:evil.txt',
  },
  {
    label: 'backslash',
    zip: () => buildZip([...good, { name: 'assets\\..\\..\\evil.txt', data: 'x' }]),
    code: 'BACKSLASH',
    entry: 'assets\\..\\..\\evil.txt',
  },
  {
    label: 'symlink',
    zip: () =>
      buildZip([
        ...good,
        { name: 'assets/passwd', data: '/etc/passwd', method: 0, unixMode: MODE_SYMLINK },
      ]),
    code: 'SYMLINK',
    entry: 'assets/passwd',
  },
  {
    label: 'Windows reparse point',
    zip: () =>
      buildZip([
        ...good,
        { name: 'assets/junction', data: 'x', unixMode: 0, dosAttributes: 0x400 },
      ]),
    code: 'SYMLINK',
    entry: 'assets/junction',
  },
  {
    label: 'FIFO',
    zip: () => buildZip([...good, { name: 'assets/pipe', data: '', unixMode: MODE_FIFO }]),
    code: 'UNSUPPORTED_ENTRY',
    entry: 'assets/pipe',
  },
  {
    label: 'duplicate name',
    zip: () => buildZip([...good, { name: 'SKILL.md', data: 'second' }]),
    code: 'DUPLICATE_ENTRY',
    entry: 'SKILL.md',
  },
  {
    label: 'file and folder of one name',
    zip: () => buildZip([...good, { name: 'SKILL.md/inner.md', data: 'x' }]),
    code: 'DUPLICATE_ENTRY',
    entry: 'SKILL.md/inner.md',
  },
  {
    label: 'case collision',
    zip: () => buildZip([...good, { name: 'assets/LOGO.png', data: 'x' }]),
    code: 'CASE_COLLISION',
    entry: 'assets/LOGO.png',
  },
  {
    label: 'folder case collision',
    zip: () => buildZip([...good, { name: 'Assets/other.png', data: 'x' }]),
    code: 'CASE_COLLISION',
    entry: 'Assets/other.png',
  },
  {
    label: 'normalisation collision',
    zip: () =>
      buildZip([
        ...good,
        { name: 'caf\u00e9.md', data: 'a' },
        { name: 'cafe\u0301.md', data: 'b' },
      ]),
    code: 'CASE_COLLISION',
    entry: 'cafe\u0301.md',
  },
  {
    label: 'too many entries',
    zip: () => buildZip(Array.from({ length: 30 }, (_, i) => ({ name: `f${i}.md`, data: 'x' }))),
    code: 'TOO_MANY_ENTRIES',
    options: { limits: { maxEntries: 20 } },
  },
  {
    label: 'zip bomb with honest headers',
    zip: () => buildZip([...good, { name: 'bomb.bin', data: zeros }]),
    code: 'TOO_LARGE',
    entry: 'bomb.bin',
    options: { limits: { maxTotalBytes: 1024 * 1024 } },
  },
  {
    label: 'zip bomb that lies about its size',
    zip: () => buildZip([...good, { name: 'bomb.bin', data: zeros, declaredSize: 1000 }]),
    code: 'LENGTH_MISMATCH',
    entry: 'bomb.bin',
  },
  {
    label: 'overlapping entries (zip bomb construction)',
    zip: () =>
      buildZip([...good, { name: 'again.md', data: '# New skill\n'.repeat(100), sameDataAs: 0 }]),
    code: 'CORRUPT',
  },
  {
    label: 'truncated archive',
    zip: () => goodZip().subarray(0, Math.floor(goodZip().length / 2)),
    code: 'TRUNCATED',
  },
  {
    label: 'wrong length: stored entry',
    zip: () =>
      buildZip([
        ...good,
        { name: 'short.bin', data: pseudoRandomBytes(3, 500), method: 0, declaredSize: 400 },
      ]),
    code: 'LENGTH_MISMATCH',
    entry: 'short.bin',
  },
  {
    label: 'wrong length: deflated entry shorter than declared',
    zip: () =>
      buildZip([...good, { name: 'short.md', data: 'abc'.repeat(1000), declaredSize: 3001 }]),
    code: 'LENGTH_MISMATCH',
    entry: 'short.md',
  },
  {
    label: 'wrong length: not the size the download announced',
    zip: goodZip,
    code: 'LENGTH_MISMATCH',
    options: { expectedSize: goodZip().length + 1 },
  },
  {
    label: 'bad CRC',
    zip: () => buildZip([...good, { name: 'bad.md', data: 'hello', crc: 0x12345678 }]),
    code: 'CRC_MISMATCH',
    entry: 'bad.md',
  },
  {
    label: 'damaged deflate data',
    zip: () => {
      const data = Buffer.from('damaged '.repeat(400));
      const body = deflateRawSync(data);
      body[0] = 0xff; // a final block of the reserved type 3
      return buildZip([...good, { name: 'damaged.md', data, compressedBody: body }]);
    },
    code: 'CORRUPT',
    entry: 'damaged.md',
  },
  {
    label: 'Windows device name',
    zip: () => buildZip([...good, { name: 'assets/con.png', data: 'x' }]),
    code: 'RESERVED_NAME',
    entry: 'assets/con.png',
  },
  {
    label: 'trailing dot',
    zip: () => buildZip([...good, { name: 'notes.', data: 'x' }]),
    code: 'RESERVED_NAME',
    entry: 'notes.',
  },
  {
    label: 'our manifest name',
    zip: () => buildZip([...good, { name: MANIFEST_NAME, data: '{}' }]),
    code: 'RESERVED_NAME',
    entry: MANIFEST_NAME,
  },
  {
    label: 'control character',
    zip: () => buildZip([...good, { name: 'bell\u0007.md', data: 'x' }]),
    code: 'INVALID_NAME',
    entry: 'bell\u0007.md',
  },
  {
    label: 'character Windows forbids',
    zip: () => buildZip([...good, { name: 'what?.md', data: 'x' }]),
    code: 'INVALID_NAME',
    entry: 'what?.md',
  },
  {
    label: 'empty path segment',
    zip: () => buildZip([...good, { name: 'assets//logo2.png', data: 'x' }]),
    code: 'INVALID_NAME',
    entry: 'assets//logo2.png',
  },
  {
    label: 'encrypted entry',
    zip: () => buildZip([...good, { name: 'secret.md', data: 'x', flags: 0x801 }]),
    code: 'UNSUPPORTED_ENTRY',
    entry: 'secret.md',
  },
  {
    label: 'unknown compression method',
    zip: () => buildZip([...good, { name: 'lzma.md', data: 'x', method: 14 }]),
    code: 'UNSUPPORTED_ENTRY',
    entry: 'lzma.md',
  },
  { label: 'not a ZIP at all', zip: () => pseudoRandomBytes(99, 5000), code: 'CORRUPT' },
];

describe('hostile archives', () => {
  let root: string;
  let zips: string;
  let brandDir: string;
  let before: Record<string, string>;

  beforeEach(async () => {
    root = await tempDir();
    zips = await tempDir();
    brandDir = path.join(root, 'Acme');
    await mkdir(brandDir);
    const first = path.join(zips, 'old.zip');
    await writeFile(
      first,
      buildZip([
        { name: 'SKILL.md', data: '# Old skill\n' },
        { name: 'assets/old.png', data: 'png' },
      ]),
    );
    await installSkillArchive({ zipPath: first, brandDir, skillId: OLD_SKILL, keepVersions: 3 });
    before = await snapshotTree(root);
  });

  afterEach(async () => {
    await removeDir(root);
    await removeDir(zips);
  });

  test.each(corpus)(
    '$label: $code, the previous copy stays',
    async ({ zip, code, entry, options }) => {
      const zipPath = path.join(zips, 'hostile.zip');
      await writeFile(zipPath, zip());
      const error = await installSkillArchive({
        zipPath,
        brandDir,
        skillId: NEW_SKILL,
        keepVersions: 3,
        ...options,
      }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(ArchiveError);
      const archiveError = error as ArchiveError;
      expect(archiveError.code).toBe(code);
      if (entry !== undefined) {
        expect(archiveError.entry).toBe(entry);
        expect(archiveError.message).toContain(JSON.stringify(entry));
      }
      expect(await snapshotTree(root)).toEqual(before);
      expect((await readInstalledSkill(brandDir))?.skillId).toBe(OLD_SKILL);
    },
  );

  test('the good part of the corpus installs (the corpus fails only for its hostile entries)', async () => {
    const zipPath = path.join(zips, 'good.zip');
    await writeFile(zipPath, goodZip());
    const skill = await installSkillArchive({
      zipPath,
      brandDir,
      skillId: NEW_SKILL,
      keepVersions: 3,
    });
    expect(skill.files.map((f) => f.path)).toEqual(good.map((e) => e.name));
    expect((await readInstalledSkill(brandDir))?.skillId).toBe(NEW_SKILL);
  });
});

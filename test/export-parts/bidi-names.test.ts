// Entry names with bidirectional control characters, in real archives written with yazl: an
// RLO makes `a\u202Egnp.exe` read as "aexe.png" in a file manager, so such a name is refused
// like a traversal name, the whole archive with it, and the previous copy stays as it was.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { ArchiveError } from '../../main/engine/export-parts/errors.ts';
import {
  installSkillArchive,
  readInstalledSkill,
} from '../../main/engine/export-parts/skill-install.ts';
import { removeDir, snapshotTree, tempDir, writeYazlZip } from './skill-fixtures.ts';

const OLD_SKILL = '11111111-1111-4111-8111-111111111111';
const NEW_SKILL = '22222222-2222-4222-8222-222222222222';

let work: string;
let brandDir: string;

beforeEach(async () => {
  work = await tempDir();
  brandDir = path.join(work, 'root', 'Acme');
  await mkdir(brandDir, { recursive: true });
  const first = path.join(work, 'old.zip');
  await writeYazlZip(new Map([['SKILL.md', Buffer.from('# Old skill\n')]]), first);
  await installSkillArchive({ zipPath: first, brandDir, skillId: OLD_SKILL, keepVersions: 3 });
});

afterEach(async () => {
  await removeDir(work);
});

async function install(name: string): Promise<unknown> {
  const zipPath = path.join(work, 'new.zip');
  await writeYazlZip(
    new Map([
      ['SKILL.md', Buffer.from('# New skill\n')],
      [name, Buffer.from('MZ')],
    ]),
    zipPath,
  );
  return installSkillArchive({ zipPath, brandDir, skillId: NEW_SKILL, keepVersions: 3 }).then(
    () => null,
    (err: unknown) => err,
  );
}

test.each([
  ['U+202A', 'assets/a\u202agnp.exe'],
  ['U+202B', 'assets/a\u202bgnp.exe'],
  ['U+202C', 'a\u202c.md'],
  ['U+202D', 'a\u202d.md'],
  ['U+202E', 'assets/a\u202egnp.exe'],
  ['U+2066', 'a\u2066.md'],
  ['U+2067', 'a\u2067.md'],
  ['U+2068', 'a\u2068.md'],
  ['U+2069', 'a\u2069.md'],
  ['U+200E', 'a\u200e.md'],
  ['U+200F', 'a\u200f.md'],
  ['U+061C', 'a\u061c.md'],
  ['U+202E', 'r\u202egnp/x.md'],
])('%s in %j: INVALID_NAME naming the character, the previous copy stays', async (code, name) => {
  const before = await snapshotTree(path.join(work, 'root'));
  const error = await install(name);
  expect(error).toBeInstanceOf(ArchiveError);
  const archiveError = error as ArchiveError;
  expect(archiveError.code).toBe('INVALID_NAME');
  expect(archiveError.entry).toBe(name);
  expect(archiveError.message).toContain(`bidirectional control character ${code}`);
  // The message shows the name escaped: a raw control would reorder the message itself.
  expect(archiveError.message).toContain(`\\u${code.slice(2)}`);
  expect(archiveError.message).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/);
  expect(await snapshotTree(path.join(work, 'root'))).toEqual(before);
  expect((await readInstalledSkill(brandDir))?.skillId).toBe(OLD_SKILL);
});

test('right-to-left text itself is a fine name (only the invisible controls are refused)', async () => {
  expect(await install('assets/שלום-مرحبا.png')).toBeNull();
  expect((await readInstalledSkill(brandDir))?.skillId).toBe(NEW_SKILL);
});

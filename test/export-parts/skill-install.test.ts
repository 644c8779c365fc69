// installSkillArchive, recoverSkillInstalls and readInstalledSkill on real folders: the
// swap, the kept versions, cancellation, a refused rename, and recovery from every point
// of the swap a crash can stop at.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { SkillInstallError } from '../../main/engine/export-parts/errors.ts';
import {
  installSkillArchive,
  readInstalledSkill,
} from '../../main/engine/export-parts/skill-install.ts';
import type {
  InstallSkillOptions,
  SwapStep,
} from '../../main/engine/export-parts/skill-install.ts';
import { MANIFEST_NAME, skillLayout } from '../../main/engine/export-parts/skill-layout.ts';
import { recoverSkillInstalls } from '../../main/engine/export-parts/skill-recover.ts';
import { listSkillVersions } from '../../main/engine/export-parts/skill-versions.ts';
import {
  expectedFiles,
  removeDir,
  sha256,
  skillContents,
  skillTreeFiles,
  snapshotTree,
  tempDir,
  writeYazlZip,
} from './skill-fixtures.ts';

const ids = [
  '10000000-0000-4000-8000-000000000001',
  '20000000-0000-4000-8000-000000000002',
  '30000000-0000-4000-8000-000000000003',
  '40000000-0000-4000-8000-000000000004',
] as const;
const contents = ids.map((_, i) => skillContents(i + 1, 12 + i, 2000));

let work: string;
let brandDir: string;
const zips: string[] = [];

beforeEach(async () => {
  work = await tempDir();
  brandDir = path.join(work, 'root', 'Acme');
  await mkdir(brandDir, { recursive: true });
  zips.length = 0;
  for (const [i, files] of contents.entries()) {
    const zipPath = path.join(work, `skill-${i}.zip`);
    await writeYazlZip(files, zipPath);
    zips.push(zipPath);
  }
});
afterEach(async () => {
  await removeDir(work);
});

function install(
  i: number,
  extra: Partial<InstallSkillOptions> = {},
): ReturnType<typeof installSkillArchive> {
  return installSkillArchive({
    zipPath: zips[i] as string,
    brandDir,
    skillId: ids[i] as string,
    keepVersions: 2,
    ...extra,
  });
}
const live = (): string => skillLayout(brandDir).live;

test('installs into an empty brand folder, with a manifest of every file', async () => {
  const skill = await install(0);
  expect(await skillTreeFiles(live())).toEqual(expectedFiles(contents[0] as Map<string, Buffer>));
  expect(skill.skillId).toBe(ids[0]);
  expect(skill.files).toHaveLength(contents[0]?.size as number);
  for (const file of skill.files) {
    const data = await readFile(path.join(live(), file.path));
    expect({ size: data.length, sha256: sha256(data) }).toEqual({
      size: file.size,
      sha256: file.sha256,
    });
  }
  expect(await readInstalledSkill(brandDir)).toEqual(skill);
  expect(await listSkillVersions(brandDir)).toEqual([]);
  // The zip is the caller's: left where it was.
  await expect(readFile(zips[0] as string)).resolves.toBeInstanceOf(Buffer);
});

test('a newer skill replaces the old, which is kept; only the newest keepVersions stay', async () => {
  for (let i = 0; i < 4; i++) await install(i);
  expect((await readInstalledSkill(brandDir))?.skillId).toBe(ids[3]);
  expect(await skillTreeFiles(live())).toEqual(expectedFiles(contents[3] as Map<string, Buffer>));
  const versions = await listSkillVersions(brandDir);
  expect(versions.map((v) => v.skillId)).toEqual([ids[2], ids[1]]);
  for (const version of versions) {
    const index = ids.indexOf(version.skillId as (typeof ids)[number]);
    expect(await skillTreeFiles(version.dir)).toEqual(
      expectedFiles(contents[index] as Map<string, Buffer>),
    );
  }
  expect(await readdir(skillLayout(brandDir).trash)).toEqual([]);
});

test('keepVersions 0 keeps no previous copy', async () => {
  await install(0, { keepVersions: 0 });
  await install(1, { keepVersions: 0 });
  expect(await listSkillVersions(brandDir)).toEqual([]);
  expect((await readInstalledSkill(brandDir))?.skillId).toBe(ids[1]);
});

test('a Brand Skill folder not made by Brand Sync is kept as an unknown version', async () => {
  await mkdir(live());
  await writeFile(path.join(live(), 'mine.md'), 'hand-made');
  await install(0);
  const [version] = await listSkillVersions(brandDir);
  expect(version?.skillId).toBeNull();
  expect(await readFile(path.join(version?.dir as string, 'mine.md'), 'utf8')).toBe('hand-made');
});

test('readInstalledSkill is null without a manifest or with a damaged one', async () => {
  expect(await readInstalledSkill(brandDir)).toBeNull();
  await install(0);
  await writeFile(path.join(live(), MANIFEST_NAME), '{"version":1,');
  expect(await readInstalledSkill(brandDir)).toBeNull();
});

test('installs to one brand folder run one after the other', async () => {
  await install(0);
  await Promise.all([install(1), install(2)]);
  expect((await readInstalledSkill(brandDir))?.skillId).toBe(ids[2]);
  expect((await listSkillVersions(brandDir)).map((v) => v.skillId)).toEqual([ids[1], ids[0]]);
});

test('an ID that is not a plain ID is refused before anything is written', async () => {
  const error = await install(0, { skillId: '../escape' }).catch((err: unknown) => err);
  expect(error).toBeInstanceOf(SkillInstallError);
  expect((error as SkillInstallError).code).toBe('INVALID_SKILL_ID');
  expect(await readdir(brandDir)).toEqual([]);
});

test('cancelling during extraction leaves the previous copy untouched', async () => {
  await install(0);
  const before = await snapshotTree(brandDir);
  const controller = new AbortController();
  const error = await install(1, {
    signal: controller.signal,
    onProgress: (p) => {
      if (p.phase === 'extract' && p.filesDone === 3) controller.abort();
    },
  }).catch((err: unknown) => err);
  expect(error).toBeInstanceOf(SkillInstallError);
  expect((error as SkillInstallError).code).toBe('ABORTED');
  expect(await snapshotTree(brandDir)).toEqual(before);
});

describe('a crash at each step of the swap', () => {
  // Throwing from the progress callback stops the install right after that step, with no
  // cleanup: the state a crash leaves. The SIGKILL test does the same with real processes.
  const expectations: [SwapStep, 'new'][] = [
    ['journal-written', 'new'],
    ['previous-moved', 'new'],
    ['installed', 'new'],
    ['journal-cleared', 'new'],
  ];
  test.each(expectations)('after %s, recovery ends with the %s copy complete', async (step) => {
    await install(0);
    const crash = new Error('crash');
    const error = await install(1, {
      onProgress: (p) => {
        if (p.phase === 'swap' && p.step === step) throw crash;
      },
    }).catch((err: unknown) => err);
    expect(error).toBe(crash);
    await recoverSkillInstalls(brandDir);
    expect((await readInstalledSkill(brandDir))?.skillId).toBe(ids[1]);
    expect(await skillTreeFiles(live())).toEqual(expectedFiles(contents[1] as Map<string, Buffer>));
    expect((await listSkillVersions(brandDir)).map((v) => v.skillId)).toEqual([ids[0]]);
    const layout = skillLayout(brandDir);
    expect(await readdir(layout.staging)).toEqual([]);
    expect(await readdir(layout.internal)).not.toContain(path.basename(layout.journal));
  });

  test('a crash during extraction leaves a partial staging folder that recovery deletes', async () => {
    await install(0);
    const crash = new Error('crash');
    await install(1, {
      onProgress: (p) => {
        if (p.phase === 'extract' && p.filesDone === 2) throw crash;
      },
    }).catch(() => undefined);
    // The install cleans up after its own failure; a real crash would not, so fake one.
    await mkdir(path.join(skillLayout(brandDir).staging, `${ids[1]}-partial`, 'assets'), {
      recursive: true,
    });
    const report = await recoverSkillInstalls(brandDir);
    expect(report).toMatchObject({ swap: 'none', removedStaging: 1 });
    expect((await readInstalledSkill(brandDir))?.skillId).toBe(ids[0]);
  });

  test('a journal damaged by hand keeps what is live, or puts back the newest version', async () => {
    await install(0);
    await install(1);
    const layout = skillLayout(brandDir);
    await writeFile(layout.journal, 'not json');
    await rm(layout.live, { recursive: true });
    await recoverSkillInstalls(brandDir);
    expect((await readInstalledSkill(brandDir))?.skillId).toBe(ids[0]);
    expect(await skillTreeFiles(live())).toEqual(expectedFiles(contents[0] as Map<string, Buffer>));
  });

  test('recovery of a folder never synced does nothing', async () => {
    expect(await recoverSkillInstalls(brandDir)).toEqual({
      swap: 'none',
      removedStaging: 0,
      removedTrash: 0,
    });
    expect(await readdir(brandDir)).toEqual([]);
  });
});

/** Makes a folder refuse renames of its entries even for root (chattr +i); null if impossible. */
function freeze(dir: string): (() => void) | null {
  try {
    execFileSync('chattr', ['+i', dir], { stdio: 'ignore' });
    return () => execFileSync('chattr', ['-i', dir], { stdio: 'ignore' });
  } catch {
    return null;
  }
}

test('when the current copy cannot be moved aside, the install fails and nothing changes', async (context) => {
  await install(0);
  const before = await snapshotTree(brandDir);
  const thaw = freeze(brandDir);
  if (thaw === null) return context.skip('chattr is not available here');
  let error: unknown;
  try {
    error = await install(1).catch((err: unknown) => err);
  } finally {
    thaw();
  }
  expect(error).toBeInstanceOf(SkillInstallError);
  expect((error as SkillInstallError).code).toBe('SWAP_FAILED');
  expect((error as Error).message).toContain('the previous copy stays');
  expect(await snapshotTree(brandDir)).toEqual(before);
});

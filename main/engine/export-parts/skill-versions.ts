// Previous copies of `Brand Skill/`, kept so that a failed or unwanted install can go back.
// Each is a whole former `Brand Skill/` folder (manifest included) named
// `<retired-at ms>-<skillId>`, so that the name alone orders them.
import { lstat, mkdir, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { fsyncDir, isMissing, removeTree } from './durable-fs.ts';
import { skillLayout } from './skill-layout.ts';
import type { SkillLayout } from './skill-layout.ts';

export interface SkillVersion {
  /** Folder name under the versions folder. */
  name: string;
  dir: string;
  /** null when the retired folder had no readable manifest. */
  skillId: string | null;
  retiredAt: Date;
}

const VERSION_NAME = /^(\d+)-(.+)$/;
const UNKNOWN = 'unknown';

/** Folder names in `dir`; none when it does not exist. */
export async function listNames(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
}

export async function pathExists(target: string): Promise<boolean> {
  try {
    await lstat(target);
    return true;
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}

/** Previous copies of a brand's Skill, newest first. */
export async function listSkillVersions(brandDir: string): Promise<SkillVersion[]> {
  const { versions } = skillLayout(brandDir);
  const found: SkillVersion[] = [];
  for (const name of await listNames(versions)) {
    const match = VERSION_NAME.exec(name);
    if (!match) continue;
    const skillId = match[2] as string;
    found.push({
      name,
      dir: path.join(versions, name),
      skillId: skillId === UNKNOWN ? null : skillId,
      retiredAt: new Date(Number(match[1])),
    });
  }
  return found.sort(
    (a, b) => b.retiredAt.getTime() - a.retiredAt.getTime() || (a.name < b.name ? 1 : -1),
  );
}

/** A free folder name for the copy being retired now. */
export async function newVersionName(layout: SkillLayout, skillId: string | null): Promise<string> {
  for (let at = Date.now(); ; at++) {
    const name = `${at}-${skillId ?? UNKNOWN}`;
    if (!(await pathExists(path.join(layout.versions, name)))) return name;
  }
}

/** Creates the bookkeeping folders and makes their names durable. */
export async function ensureInternalDirs(layout: SkillLayout): Promise<void> {
  const created = await mkdir(layout.internal, { recursive: true });
  for (const dir of [layout.staging, layout.versions, layout.trash])
    await mkdir(dir, { recursive: true });
  await fsyncDir(layout.internal);
  if (created !== undefined) await fsyncDir(layout.brandDir);
}

/** Deletes all but the newest `keep` versions. */
export async function pruneVersions(layout: SkillLayout, keep: number): Promise<void> {
  const all = await listSkillVersions(layout.brandDir);
  for (const version of all.slice(keep)) {
    // Out of the listing in one rename first: a crash mid-delete leaves only trash.
    const doomed = path.join(layout.trash, version.name);
    await rename(version.dir, doomed);
    await removeTree(doomed);
  }
  if (all.length > keep) await fsyncDir(layout.versions);
}

/** Removes what a crash left half-deleted. */
export async function emptyTrash(layout: SkillLayout): Promise<number> {
  const names = await listNames(layout.trash);
  for (const name of names) await removeTree(path.join(layout.trash, name));
  return names.length;
}

// Start-up repair of a brand's `Brand Skill/` after a crash. Whatever the moment of the
// crash, afterwards `Brand Skill/` is a complete copy: the new one when the swap had begun
// (its staging copy was complete before the journal was written), else the old one.
import path from 'node:path';
import { readdir, rm } from 'node:fs/promises';
import { fsyncDir, removeTree, renameWithRetry } from './durable-fs.ts';
import { withBrandLock } from './brand-lock.ts';
import { clearJournal, readJournal } from './skill-journal.ts';
import { skillLayout } from './skill-layout.ts';
import type { SkillLayout } from './skill-layout.ts';
import { readManifest } from './skill-manifest.ts';
import {
  emptyTrash,
  listNames,
  listSkillVersions,
  newVersionName,
  pathExists,
  ensureInternalDirs,
} from './skill-versions.ts';

export interface RecoveryReport {
  /** What became of a swap a crash interrupted. */
  swap: 'none' | 'completed' | 'rolled-back';
  /** The Skill on disk afterwards, when a swap was repaired. */
  skillId?: string;
  /** Partial extractions deleted. */
  removedStaging: number;
  /** Half-deleted old versions finished off. */
  removedTrash: number;
}

/** Finishes or rolls back an interrupted swap and clears leftovers. Call at start-up. */
export async function recoverSkillInstalls(brandDir: string): Promise<RecoveryReport> {
  return withBrandLock(brandDir, () => recoverLayout(skillLayout(brandDir)));
}

/** The same, for a caller that holds the brand lock already. */
export async function recoverLayout(layout: SkillLayout): Promise<RecoveryReport> {
  if (!(await pathExists(layout.internal)))
    return { swap: 'none', removedStaging: 0, removedTrash: 0 };
  const journal = await readJournal(layout);
  let report: RecoveryReport = { swap: 'none', removedStaging: 0, removedTrash: 0 };
  if (journal === 'unreadable') {
    // Written atomically, so only a hand edit gets here: keep whatever is live.
    await restoreIfMissing(layout);
    await clearJournal(layout);
  } else if (journal !== null) {
    const staged = path.join(layout.staging, journal.staging);
    if (await pathExists(staged)) {
      // Crashed before the new copy moved in: move the old one aside (if still there) and finish.
      if (await pathExists(layout.live)) {
        const name =
          journal.previous !== null &&
          !(await pathExists(path.join(layout.versions, journal.previous)))
            ? journal.previous
            : await newVersionName(layout, (await readManifest(layout.live))?.skillId ?? null);
        await ensureInternalDirs(layout);
        await renameWithRetry(layout.live, path.join(layout.versions, name));
        await fsyncDir(layout.versions);
      }
      await renameWithRetry(staged, layout.live);
      await fsyncDir(layout.staging);
      await fsyncDir(layout.brandDir);
      report = { ...report, swap: 'completed', skillId: journal.skillId };
    } else if (await pathExists(layout.live)) {
      // The last rename happened; only the journal was left.
      report = { ...report, swap: 'completed', skillId: journal.skillId };
    } else {
      // Neither copy in place (removed by hand mid-swap): bring back the old one.
      const restored = await restoreIfMissing(layout);
      report = {
        ...report,
        swap: 'rolled-back',
        ...(restored === null ? {} : { skillId: restored }),
      };
    }
    await clearJournal(layout);
  }
  report.removedStaging = await clearStaging(layout);
  report.removedTrash = await emptyTrash(layout);
  await removeTempFiles(layout);
  return report;
}

/** Puts the newest previous version back when `Brand Skill/` is missing; its skillId, if any. */
async function restoreIfMissing(layout: SkillLayout): Promise<string | null> {
  if (await pathExists(layout.live)) return null;
  const [newest] = await listSkillVersions(layout.brandDir);
  if (newest === undefined) return null;
  await renameWithRetry(newest.dir, layout.live);
  await fsyncDir(layout.versions);
  await fsyncDir(layout.brandDir);
  return newest.skillId;
}

async function clearStaging(layout: SkillLayout): Promise<number> {
  const names = await listNames(layout.staging);
  for (const name of names) await removeTree(path.join(layout.staging, name));
  return names.length;
}

/** Temp files of an atomic write the crash interrupted. */
async function removeTempFiles(layout: SkillLayout): Promise<void> {
  for (const entry of await readdir(layout.internal, { withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.tmp'))
      await rm(path.join(layout.internal, entry.name), { force: true });
  }
}

// Puts a downloaded Brand Skill ZIP in place of `<brand>/Brand Skill/`: checked and
// extracted into a staging folder next to it, then swapped in with two renames recorded by
// a journal. A failure at any point leaves the previous copy in place; a crash at any
// point leaves a state `recoverSkillInstalls` turns into one complete copy.
//
// No OS renames a folder over a non-empty one (POSIX refuses with ENOTEMPTY, Windows with
// EPERM), so the current copy always moves aside first, into the versions folder.
import { mkdtemp, statfs } from 'node:fs/promises';
import path from 'node:path';
import { withBrandLock } from './brand-lock.ts';
import { fsyncDir, removeTree, renameWithRetry } from './durable-fs.ts';
import { SkillInstallError } from './errors.ts';
import { SkillArchive } from './skill-archive.ts';
import type { ArchiveLimits, ExtractProgress } from './skill-archive.ts';
import { clearJournal, writeJournal } from './skill-journal.ts';
import { MANIFEST_NAME, skillLayout } from './skill-layout.ts';
import type { SkillLayout } from './skill-layout.ts';
import { readManifest, writeManifest } from './skill-manifest.ts';
import type { InstalledSkill } from './skill-manifest.ts';
import { recoverLayout } from './skill-recover.ts';
import { ensureInternalDirs, newVersionName, pathExists, pruneVersions } from './skill-versions.ts';

export type { InstalledSkill } from './skill-manifest.ts';

/** The steps of the swap, reported as each completes. */
export type SwapStep =
  'journal-written' | 'previous-moved' | 'installed' | 'journal-cleared' | 'pruned';

export type InstallProgress =
  ({ phase: 'extract' } & ExtractProgress) | { phase: 'swap'; step: SwapStep };

export interface InstallSkillOptions {
  /** A complete download; the install does not move or delete it. */
  zipPath: string;
  brandDir: string;
  skillId: string;
  /** Previous copies to keep (0: none). */
  keepVersions: number;
  /** Size the download announced (Content-Length); a different file is rejected. */
  expectedSize?: number;
  limits?: Partial<ArchiveLimits>;
  /** Stops the install before the swap; once the swap has begun it completes. */
  signal?: AbortSignal;
  onProgress?: (progress: InstallProgress) => void;
}

// Skill IDs are UUIDs; they become folder names, so nothing else is let through.
const SKILL_ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;
// Room left on the disk beyond the expanded archive, for the manifest and the filesystem.
const SPACE_MARGIN = 16 * 1024 * 1024;

/** Installs the archive as the brand's `Brand Skill/`; throws ArchiveError or SkillInstallError. */
export async function installSkillArchive(options: InstallSkillOptions): Promise<InstalledSkill> {
  if (!SKILL_ID.test(options.skillId)) {
    throw new SkillInstallError(
      'INVALID_SKILL_ID',
      `skill ID ${JSON.stringify(options.skillId)} is not a plain ID`,
    );
  }
  if (!Number.isInteger(options.keepVersions) || options.keepVersions < 0) {
    throw new RangeError(`keepVersions must be a whole number ≥ 0, got ${options.keepVersions}`);
  }
  return withBrandLock(options.brandDir, () => install(options));
}

/** Which Skill `Brand Skill/` holds; null when none was installed by Brand Sync. */
export async function readInstalledSkill(brandDir: string): Promise<InstalledSkill | null> {
  return readManifest(skillLayout(brandDir).live);
}

async function install(options: InstallSkillOptions): Promise<InstalledSkill> {
  const { signal, onProgress } = options;
  const layout = skillLayout(options.brandDir);
  // A swap a crash interrupted is settled before a new one starts.
  await recoverLayout(layout);
  throwIfAborted(signal);
  const archive = await SkillArchive.open(options.zipPath, {
    limits: options.limits,
    expectedSize: options.expectedSize,
    reservedRootNames: [MANIFEST_NAME.toLowerCase()],
  });
  let staged: string | undefined;
  let skill: InstalledSkill;
  try {
    await checkFreeSpace(layout.brandDir, archive.totalBytes);
    await ensureInternalDirs(layout);
    staged = await mkdtemp(path.join(layout.staging, `${options.skillId}-`));
    const files = await archive.extractTo(staged, {
      signal,
      onProgress: (p) => onProgress?.({ phase: 'extract', ...p }),
    });
    skill = {
      skillId: options.skillId,
      installedAt: new Date().toISOString(),
      totalBytes: archive.totalBytes,
      files,
    };
    await writeManifest(staged, skill);
    await fsyncDir(staged);
    await fsyncDir(layout.staging);
    throwIfAborted(signal);
  } catch (err) {
    if (staged !== undefined) await removeTree(staged);
    throwIfAborted(signal, err);
    throw err;
  } finally {
    await archive.close();
  }
  await swapIn(layout, staged, skill, onProgress);
  await pruneVersions(layout, options.keepVersions);
  onProgress?.({ phase: 'swap', step: 'pruned' });
  return skill;
}

async function swapIn(
  layout: SkillLayout,
  staged: string,
  skill: InstalledSkill,
  onProgress: InstallSkillOptions['onProgress'],
): Promise<void> {
  const hadLive = await pathExists(layout.live);
  const previous = hadLive
    ? await newVersionName(layout, (await readManifest(layout.live))?.skillId ?? null)
    : null;
  await writeJournal(layout, {
    skillId: skill.skillId,
    staging: path.basename(staged),
    previous,
    startedAt: new Date().toISOString(),
  });
  onProgress?.({ phase: 'swap', step: 'journal-written' });

  // Failures below undo what was done, clear the journal, then drop the staging copy: in
  // that order, a crash during the undo still leaves a state recovery can settle.
  const retired = previous === null ? null : path.join(layout.versions, previous);
  if (retired !== null) {
    try {
      await renameWithRetry(layout.live, retired);
    } catch (err) {
      await abandon(layout, staged);
      throw swapFailed('the current copy could not be moved aside', err);
    }
    await fsyncDir(layout.versions);
    onProgress?.({ phase: 'swap', step: 'previous-moved' });
  }
  try {
    await renameWithRetry(staged, layout.live);
  } catch (err) {
    if (retired !== null) await renameWithRetry(retired, layout.live);
    await fsyncDir(layout.brandDir);
    await abandon(layout, staged);
    throw swapFailed('the new copy could not be moved in', err);
  }
  await fsyncDir(layout.brandDir);
  await fsyncDir(layout.staging);
  onProgress?.({ phase: 'swap', step: 'installed' });
  await clearJournal(layout);
  onProgress?.({ phase: 'swap', step: 'journal-cleared' });
}

async function abandon(layout: SkillLayout, staged: string): Promise<void> {
  await clearJournal(layout);
  await removeTree(staged);
}

function swapFailed(what: string, cause: unknown): SkillInstallError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new SkillInstallError(
    'SWAP_FAILED',
    `${what} (${detail}); the previous copy stays`,
    cause,
  );
}

async function checkFreeSpace(dir: string, needed: number): Promise<void> {
  const { bavail, bsize } = await statfs(dir);
  const free = bavail * bsize;
  if (free < needed + SPACE_MARGIN) {
    throw new SkillInstallError(
      'NO_SPACE',
      `the Skill expands to ${needed} bytes but only ${free} are free on the disk of ${dir}`,
    );
  }
}

function throwIfAborted(signal: AbortSignal | undefined, cause?: unknown): void {
  if (signal?.aborted) {
    throw new SkillInstallError(
      'ABORTED',
      'the install was cancelled; the previous copy stays',
      cause ?? signal.reason,
    );
  }
}

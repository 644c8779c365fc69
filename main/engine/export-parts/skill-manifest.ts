// The small file inside `Brand Skill/` that says which Skill version is on disk and what it
// holds. It is written into the staging folder before the swap, so it is always swapped
// together with the files it describes.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { isMissing, writeFileDurable } from './durable-fs.ts';
import { MANIFEST_NAME } from './skill-layout.ts';

const manifestSchema = z.object({
  version: z.literal(1),
  skillId: z.string().min(1),
  installedAt: z.string(),
  totalBytes: z.number().int().nonnegative(),
  files: z.array(
    z.object({
      path: z.string().min(1),
      size: z.number().int().nonnegative(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  ),
});

export interface InstalledSkillFile {
  /** Relative path with `/` separators. */
  path: string;
  size: number;
  sha256: string;
}

export interface InstalledSkill {
  skillId: string;
  /** ISO 8601. */
  installedAt: string;
  totalBytes: number;
  files: InstalledSkillFile[];
}

export async function writeManifest(dir: string, skill: InstalledSkill): Promise<void> {
  const doc = { version: 1, ...skill };
  await writeFileDurable(path.join(dir, MANIFEST_NAME), JSON.stringify(doc, null, 1) + '\n');
}

/**
 * The Skill described by `dir`'s manifest; null when there is none or it is unreadable
 * (a folder not installed by us, or edited by hand): the engine then installs afresh.
 */
export async function readManifest(dir: string): Promise<InstalledSkill | null> {
  let text: string;
  try {
    text = await readFile(path.join(dir, MANIFEST_NAME), 'utf8');
  } catch (err) {
    if (isMissing(err) || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) return null;
  const { skillId, installedAt, totalBytes, files } = parsed.data;
  return { skillId, installedAt, totalBytes, files };
}

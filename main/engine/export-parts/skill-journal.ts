// The record of a swap in progress. It is written (atomically) before the first rename and
// removed after the last, so that start-up can tell an interrupted swap and finish it.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { fsyncDir, isMissing, writeFileAtomic } from './durable-fs.ts';
import type { SkillLayout } from './skill-layout.ts';

const journalSchema = z.object({
  version: z.literal(1),
  skillId: z.string().min(1),
  /** Folder name under the staging folder: the complete new copy. */
  staging: z.string().min(1),
  /** Folder name under the versions folder that the current copy moves to; null if none. */
  previous: z.string().min(1).nullable(),
  startedAt: z.string(),
});

export type SwapJournal = Omit<z.infer<typeof journalSchema>, 'version'>;

/** The journal, `null` when no swap is in progress, `'unreadable'` when it cannot be parsed. */
export async function readJournal(layout: SkillLayout): Promise<SwapJournal | null | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(layout.journal, 'utf8');
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
  try {
    const parsed = journalSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return 'unreadable';
    const { version: _version, ...journal } = parsed.data;
    return journal;
  } catch {
    return 'unreadable';
  }
}

export async function writeJournal(layout: SkillLayout, journal: SwapJournal): Promise<void> {
  await writeFileAtomic(layout.journal, JSON.stringify({ version: 1, ...journal }) + '\n');
}

export async function clearJournal(layout: SkillLayout): Promise<void> {
  await rm(layout.journal, { force: true });
  await fsyncDir(path.dirname(layout.journal));
}

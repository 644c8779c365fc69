// The beta Brand Skill jobs the user added (`skills add ID`), kept as one typed setting: a
// beta job's brandId is not a /brands brand, so the brand-bound tables cannot hold it, and
// the list is short (jobs started before the migration to /brands).
import { z } from 'zod';
import { defineSetting } from '../store/index.ts';
import type { Store } from '../store/index.ts';

const TrackedSkill = z.object({
  /** The beta Brand Skill ID (the job), the only ID the beta flow polls and deletes by. */
  id: z.string().min(1),
  brandId: z.string().nullable(),
  brandName: z.string().nullable(),
  /** Last status seen: pending, processing, completed, failed, or any other the service says. */
  status: z.string().nullable(),
  skillId: z.string().nullable(),
  failure: z.object({ code: z.string().nullable(), message: z.string().nullable() }).nullable(),
  /** The brand folder (under the sync root) its Skill was installed into. */
  folderName: z.string().nullable(),
  installedSkillId: z.string().nullable(),
  installedAt: z.number().nullable(),
  addedAt: z.number(),
  updatedAt: z.number(),
});
export type TrackedSkill = z.infer<typeof TrackedSkill>;

export const trackedSkillsSetting = defineSetting(
  'brandSkills.tracked',
  z.array(TrackedSkill),
  [] as TrackedSkill[],
  'Beta Brand Skill jobs added by ID: polled until completed, their Skill stored like an export.',
);

/** Status the service gives no more answers about: the job is gone there. */
export const GONE_STATUS = 'not_found';

export function listTracked(store: Store): TrackedSkill[] {
  return store.settings.read(trackedSkillsSetting);
}

export function getTracked(store: Store, id: string): TrackedSkill | undefined {
  return listTracked(store).find((s) => s.id === id.toLowerCase());
}

/** Adds the job (a second add keeps the first record); returns its record and whether it is new. */
export function trackSkill(store: Store, id: string): { record: TrackedSkill; added: boolean } {
  const key = id.toLowerCase();
  return store.transaction(() => {
    const all = listTracked(store);
    const existing = all.find((s) => s.id === key);
    if (existing !== undefined) return { record: existing, added: false };
    const now = store.now();
    const record: TrackedSkill = {
      id: key,
      brandId: null,
      brandName: null,
      status: null,
      skillId: null,
      failure: null,
      folderName: null,
      installedSkillId: null,
      installedAt: null,
      addedAt: now,
      updatedAt: now,
    };
    store.settings.write(trackedSkillsSetting, [...all, record]);
    return { record, added: true };
  });
}

/** Merges `patch` into the record; undefined when the job is no longer tracked. */
export function updateTracked(
  store: Store,
  id: string,
  patch: Partial<Omit<TrackedSkill, 'id' | 'addedAt'>>,
): TrackedSkill | undefined {
  const key = id.toLowerCase();
  return store.transaction(() => {
    const all = listTracked(store);
    const index = all.findIndex((s) => s.id === key);
    const current = all[index];
    if (current === undefined) return undefined;
    const next: TrackedSkill = { ...current, ...patch, updatedAt: store.now() };
    all[index] = next;
    store.settings.write(trackedSkillsSetting, all);
    return next;
  });
}

export function untrackSkill(store: Store, id: string): TrackedSkill | undefined {
  const key = id.toLowerCase();
  return store.transaction(() => {
    const all = listTracked(store);
    const found = all.find((s) => s.id === key);
    if (found !== undefined) {
      store.settings.write(
        trackedSkillsSetting,
        all.filter((s) => s.id !== key),
      );
    }
    return found;
  });
}

/** Whether the engine still has work for it: not failed, gone, or installed at its Skill. */
export function needsSync(record: TrackedSkill): boolean {
  if (record.status === 'failed' || record.status === GONE_STATUS) return false;
  if (record.status === 'completed' && record.installedSkillId !== null) {
    return record.installedSkillId !== (record.skillId ?? record.id);
  }
  return true;
}

// Where an installed Brand Skill and its bookkeeping live inside a brand folder.
//
// Staging, previous versions and the journal sit in the brand folder's hidden
// `.brand-sync-skill/` folder, not in the data dir: the new copy moves in and the current
// copy moves aside by rename, and a rename only works within one volume (the sync root may
// be a NAS or an external disk while the data dir is on the system disk). Inside the brand
// folder they also follow the brand when the user renames or moves its folder. Staging must
// be next to `Brand Skill/` anyway, so the folder watcher has to skip one engine folder
// whatever we choose: its name carries the engine's prefix, which the scanner and the
// watcher never upload (`folder-parts/ignore-rules.ts`), like everything under `Brand Skill/`.
import path from 'node:path';
import { BRAND_SKILL_DIR, ENGINE_TEMP_PREFIX } from '../folder-parts/folder-layout.ts';

export const INTERNAL_DIR_NAME = `${ENGINE_TEMP_PREFIX}skill`;
/** Inside `Brand Skill/`, so that it is swapped together with the files it describes. */
export const MANIFEST_NAME = `${ENGINE_TEMP_PREFIX}manifest.json`;

export interface SkillLayout {
  brandDir: string;
  /** `<brand>/Brand Skill`: what the user sees. */
  live: string;
  internal: string;
  /** Complete extractions waiting for their swap, or partial ones to delete. */
  staging: string;
  /** Previous copies, newest kept. */
  versions: string;
  /** Versions being deleted: renamed here first so that a half-deleted one is never listed. */
  trash: string;
  journal: string;
}

export function skillLayout(brandDir: string): SkillLayout {
  const internal = path.join(brandDir, INTERNAL_DIR_NAME);
  return {
    brandDir,
    live: path.join(brandDir, BRAND_SKILL_DIR),
    internal,
    staging: path.join(internal, 'staging'),
    versions: path.join(internal, 'versions'),
    trash: path.join(internal, 'trash'),
    journal: path.join(internal, 'install-journal.json'),
  };
}

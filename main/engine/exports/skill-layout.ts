// Where an installed Brand Skill and its bookkeeping live inside a brand folder.
//
// Staging, previous versions and the journal sit in the brand folder's hidden
// `.brand-sync-skill/` folder, not in the data dir: the new copy moves in and the current
// copy moves aside by rename, and a rename only works within one volume (the sync root may
// be a NAS or an external disk while the data dir is on the system disk). Inside the brand
// folder they also follow the brand when the user renames or moves its folder. Staging must
// be next to `Brand Skill/` anyway, so the folder watcher has to skip one engine folder
// whatever we choose; `isSkillSyncPath` says which paths it must skip. The name starts with
// the engine's reserved `.brand-sync-` prefix.
import path from 'node:path';

export const SKILL_DIR_NAME = 'Brand Skill';
export const INTERNAL_DIR_NAME = '.brand-sync-skill';
/** Inside `Brand Skill/`, so that it is swapped together with the files it describes. */
export const MANIFEST_NAME = '.brand-sync-manifest.json';

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
    live: path.join(brandDir, SKILL_DIR_NAME),
    internal,
    staging: path.join(internal, 'staging'),
    versions: path.join(internal, 'versions'),
    trash: path.join(internal, 'trash'),
    journal: path.join(internal, 'install-journal.json'),
  };
}

/**
 * Whether a path relative to the brand folder belongs to the export sync (the installed
 * Skill or its bookkeeping): the folder watcher must neither upload nor report it.
 */
export function isSkillSyncPath(relativePath: string): boolean {
  // Case-insensitive: the root may be shared with a case-insensitive machine.
  const first = (relativePath.split(/[\\/]/)[0] ?? '').normalize('NFC').toLowerCase();
  return first === SKILL_DIR_NAME.toLowerCase() || first === INTERNAL_DIR_NAME;
}

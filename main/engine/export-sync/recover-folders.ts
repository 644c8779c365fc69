// Start-up repair of `Brand Skill/` in every brand folder: a swap a crash interrupted is
// finished or rolled back before anything else reads or replaces the folder.
import { stat } from 'node:fs/promises';
import { recoverSkillInstalls } from '../export-parts/skill-recover.ts';
import type { TypedEmitter } from '../queue/index.ts';
import type { EngineEvents } from '../core/engine-events.ts';

export interface SkillFolder {
  brandId: string;
  dir: string;
}

/** Recovers each existing folder; a failure is a warning about that brand, not the end. */
export async function recoverSkillFolders(
  events: TypedEmitter<EngineEvents>,
  folders: readonly SkillFolder[],
): Promise<void> {
  for (const { brandId, dir } of folders) {
    const exists = await stat(dir).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!exists) continue;
    try {
      const report = await recoverSkillInstalls(dir);
      if (report.swap !== 'none') {
        events.emit('notice', {
          level: 'info',
          code: 'BRAND_SKILL_RECOVERED',
          brandId,
          message:
            report.swap === 'completed'
              ? `An interrupted Brand Skill update in ${dir} was completed${report.skillId ? ` (Skill ${report.skillId})` : ''}.`
              : `An interrupted Brand Skill update in ${dir} was rolled back to the previous copy.`,
        });
      }
    } catch (error) {
      events.emit('notice', {
        level: 'warn',
        code: 'BRAND_SKILL_RECOVERY_FAILED',
        brandId,
        message: `Could not check Brand Skill/ in ${dir}: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
}

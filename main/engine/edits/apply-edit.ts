// The use case both faces call to apply an edit: the candidate becomes the active Brand, then
// the Brand Skill is brought to disk at once. A stale edit (the brand moved on meanwhile) is
// not applied, but the brand's current Skill is still brought before the refusal is told:
// the Skill on disk may be behind too, and the person learns it is in place, not "later".
import type { BrandEdit } from '../api/index.ts';
import type { Engine } from '../core/engine.ts';
import { bringSkillNow, type SkillDelivery } from '../export-sync/bring-skill.ts';
import { applyEdit, EditActionError } from './edit-actions.ts';

/** The service's answer: the applied edit, or the stale refusal (never both). */
export type ApplyAnswer = { edit: BrandEdit; stale: null } | { edit: null; stale: EditActionError };

export type AppliedEdit = ApplyAnswer & { skill: SkillDelivery };

export interface ApplyEditOptions {
  signal?: AbortSignal;
  /** Told once the service answered, before the Skill is brought (a face's progress line). */
  onAnswered?: (answered: ApplyAnswer) => void;
}

/** Applies the edit and brings the Brand Skill to disk; other refusals are thrown as they come. */
export async function applyEditAndBringSkill(
  engine: Engine,
  brandId: string,
  editId: string,
  options: ApplyEditOptions = {},
): Promise<AppliedEdit> {
  const { signal, onAnswered } = options;
  let answered: ApplyAnswer;
  try {
    answered = { edit: await applyEdit(engine, brandId, editId, signal), stale: null };
  } catch (error) {
    if (!(error instanceof EditActionError) || error.code !== 'BRAND_EDIT_STALE') throw error;
    answered = { edit: null, stale: error };
  }
  onAnswered?.(answered);
  const skill = await bringSkillNow(engine, brandId, 'edit', signal);
  return { ...answered, skill };
}

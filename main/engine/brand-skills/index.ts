// Beta Brand Skill jobs (the /brand-skills flow): the feature, its job, and the user's actions.
export { brandSkillsFeature, brandSkillsFeatureWith } from './brand-skills-feature.ts';
export {
  betaFields,
  brandSkillSyncKey,
  brandSkillSyncKind,
  BrandSkillSyncPayload,
  type BrandSkillJobOptions,
  type BrandSkillOutcome,
  type BrandSkillSyncResult,
} from './beta-skill-job.ts';
export {
  addBetaSkill,
  BetaSkillInputError,
  deleteBetaSkill,
  showBetaSkill,
  type BetaSkillDeps,
} from './beta-skills.ts';
export {
  getTracked,
  listTracked,
  needsSync,
  trackedSkillsSetting,
  untrackSkill,
  type TrackedSkill,
} from './tracked-skills.ts';

// The engine's features beyond brands and account, in reconcile order: a brand's Library
// is mirrored, its folder synced, then its Brand Skill brought to disk; brands under
// analysis and image edits are followed to their end. Hosts pass this
// list to Engine.open; each feature registers its own job kinds.
import type { FeatureFactory } from './engine.ts';
import { brandSkillsFeature } from '../brand-skills/index.ts';
import { brandCreationFeature } from '../brands/index.ts';
import { brandFollowFeature } from '../brands/follow-brand.ts';
import { brandEditsFeature } from '../edits/index.ts';
import { exportSync } from '../export-sync/index.ts';
import { folderSyncFeature } from '../folder-sync/folder-sync-feature.ts';
import { imageEditsFeature } from '../images/image-edits-feature.ts';
import { librarySync } from '../library/index.ts';

export const defaultFeatures: readonly FeatureFactory[] = [
  librarySync,
  folderSyncFeature(),
  exportSync,
  brandSkillsFeature,
  brandEditsFeature,
  brandCreationFeature,
  brandFollowFeature,
  imageEditsFeature,
];

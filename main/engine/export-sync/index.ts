// The export sync's public surface: the feature, its job kind and settings, the shared
// download-and-install step (used by beta Brand Skills too) and the run-one-job helper.
export { exportSync, exportSyncFeature, type ExportSyncOptions } from './export-sync-feature.ts';
export {
  exportSyncKey,
  exportSyncKind,
  ExportSyncPayload,
  type ExportOutcome,
  type ExportSyncResult,
} from './export-job.ts';
export {
  exportCheckIntervalSetting,
  exportNextCheckSetting,
  skillKeepVersionsSetting,
} from './settings.ts';
export {
  deliverSkill,
  discardDownload,
  downloadsDir,
  sweepDownloads,
  type DeliveryProgress,
  type DeliverSkillOptions,
  type SkillSource,
} from './skill-delivery.ts';
export { brandFolderFor } from './brand-dir.ts';
export { recoverSkillFolders, type SkillFolder } from './recover-folders.ts';
export { countsLine, OutcomeLog } from './outcome-log.ts';

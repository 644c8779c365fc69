// The local store's public surface.
export { openStore, openStoreReadOnly, Store, databaseFileName, keepPrivate } from './store.ts';
export type { StoreOptions, Freshness, StatusSummary } from './store.ts';
export { StoreError, isStoreError } from './store-error.ts';
export type { StoreErrorCode } from './store-error.ts';
export type { WriteHook } from './db.ts';
export { migrations } from './migrations.ts';
export type { Migration } from './migrations.ts';
export * from './setting.ts';
export { brandDisplayName } from './brands-repo.ts';
export type { Brand, BrandLink, BrandRecordInput } from './brands-repo.ts';
export { personalWorkspaceKey, workspaceKey } from './workspaces-repo.ts';
export type { Workspace, WorkspaceInput, CreditBalance } from './workspaces-repo.ts';
export { fileKinds, fileStates } from './files-repo.ts';
export type {
  LocalFile,
  FileKind,
  FileState,
  FileChange,
  FileObservation,
  FileStatePatch,
  UploadRecord,
} from './files-repo.ts';
export { normalizeRelPath, pathKey } from './path-key.ts';
export { jobStates, activeJobStates, interruptionsOf, INTERRUPTIONS_FACT } from './jobs-repo.ts';
export type { JobRecord, JobState, JobError, NewJob, QueueOwner } from './jobs-repo.ts';
export type {
  LibraryItem,
  LibraryItemInput,
  LibraryItemWithRaw,
  LibraryQuery,
  LibraryPage,
  PageUpsertResult,
} from './library-repo.ts';
export type { CachedMedia } from './media-cache-repo.ts';
export type { BrandExport, ExportRecordInput } from './exports-repo.ts';
export type { StoredBrandEdit, BrandEditInput } from './brand-edits-repo.ts';
export { activityLevels } from './activity-repo.ts';
export type { ActivityEntry, ActivityInput, ActivityLevel } from './activity-repo.ts';
export type { SyncState } from './sync-state-repo.ts';

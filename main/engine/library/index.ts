// The Library mirror's public surface.
export { LibraryMirror, librarySyncScope } from './library-mirror.ts';
export type {
  LibraryMirrorOptions,
  MirrorMode,
  MirrorOptions,
  MirrorResult,
} from './library-mirror.ts';
export { clientPageSource } from './library-page-source.ts';
export type {
  LibraryPageSource,
  LibraryPageQuery,
  LibraryPageAnswer,
} from './library-page-source.ts';
export { toLibraryItem } from './media-item.ts';
export {
  librarySyncJob,
  librarySyncJobKind,
  librarySyncKey,
  LibrarySyncPayload,
} from './library-sync-job.ts';
export type {
  LibrarySyncJobOptions,
  LibrarySyncResult,
  LibrarySyncSkipped,
} from './library-sync-job.ts';
export {
  libraryFeatureWith,
  libraryRefreshIntervalSetting,
  librarySync,
} from './library-feature.ts';
export type {
  LibraryFeatureOptions,
  LibraryReport,
  LibraryReportEntry,
} from './library-feature.ts';
export { MEDIA_CACHE_DIR, MediaCache, mediaCacheDir } from './media-cache.ts';
export type { CachedFile, DownloadFile, MediaCacheOptions } from './media-cache.ts';
export { MirrorError } from './mirror-error.ts';
export type { MirrorErrorCode } from './mirror-error.ts';

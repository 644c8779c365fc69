// The files of the brand folders with their sync state and the reason, in the words a
// person reads: one document for `files` and the window's Files tab.
import { brandDisplayName, fileStates } from '../store/index.ts';
import type { FileState, LocalFile, Store } from '../store/index.ts';
import { rateLimitedUntilSetting } from '../store/setting.ts';
import { UPLOAD_KIND, uploadKey } from '../folder-sync/file-keys.ts';

export type FilesDocument = ReturnType<typeof filesDocument>;

export function filesDocument(store: Store, brandId: string | undefined, state?: FileState) {
  const brands = new Map(store.brands.list({ includeDeleted: true }).map((b) => [b.id, b]));
  const brand = brandId === undefined ? undefined : brands.get(brandId);
  const files: LocalFile[] = [];
  for (let afterId = 0; ;) {
    const page = store.files.list({
      ...(brandId === undefined ? {} : { brandId }),
      ...(state ? { state } : {}),
      afterId,
      limit: 5000,
    });
    files.push(...page);
    if (page.length < 5000) break;
    afterId = (page[page.length - 1] as LocalFile).id;
  }
  const folderOf = (id: string) => brands.get(id)?.folderName ?? null;
  files.sort(
    (a, b) =>
      (folderOf(a.brandId) ?? a.brandId).localeCompare(folderOf(b.brandId) ?? b.brandId) ||
      a.relPath.localeCompare(b.relPath),
  );
  return {
    brand:
      brandId === undefined
        ? null
        : {
            id: brandId,
            name: brand ? brandDisplayName(brand) : null,
            folder: brand?.folderName ?? null,
          },
    state: state ?? null,
    counts: store.files.countsByState(brandId),
    files: files.map((f) => ({
      brandId: f.brandId,
      folder: folderOf(f.brandId),
      path: f.relPath,
      state: f.state,
      reason: f.reason,
      code: f.state === 'skipped' || f.state === 'failed' ? f.lastError : null,
      willRetry: f.state === 'failed' ? f.nextRetryAt !== null : null,
      size: f.size,
      bytesSent: f.bytesSent,
      sha256: f.sha256,
      imageId: f.imageId,
      existing: f.existing,
      updatedAt: new Date(f.updatedAt).toISOString(),
    })),
  };
}

/** No database yet: nothing was indexed on this machine. */
export function emptyFilesDocument(brandId: string | undefined, state?: FileState): FilesDocument {
  return {
    brand: brandId === undefined ? null : { id: brandId, name: null, folder: null },
    state: state ?? null,
    counts: Object.fromEntries(fileStates.map((s) => [s, 0])) as Record<FileState, number>,
    files: [],
  };
}

/** What a file's state means now, beyond its row: the service's wait, the uploads running. */
export interface FileDetailContext {
  /** The service asked the key to wait until then (epoch ms), or null. */
  rateLimitedUntil: number | null;
  /** Upload job keys (brand + bytes) being sent now; undefined: not known (no engine data). */
  running: ReadonlySet<string> | undefined;
  now: number;
}

export const NO_DETAIL_CONTEXT: FileDetailContext = {
  rateLimitedUntil: null,
  running: undefined,
  now: 0,
};

/** The context of `store` now (a read: works in another process than the engine's). */
export function fileDetailContext(store: Store): FileDetailContext {
  const running = new Set<string>();
  for (const job of store.jobs.list({ state: 'running', kind: UPLOAD_KIND, limit: 1000 })) {
    if (job.key !== null) running.add(job.key);
  }
  return {
    rateLimitedUntil: store.settings.read(rateLimitedUntilSetting),
    running,
    now: Date.now(),
  };
}

/** The state of one file in words ("sent 1.2 MB of 3.4 MB", "skipped: GIF is not accepted"). */
export function fileDetail(
  f: FilesDocument['files'][number],
  context: FileDetailContext = NO_DETAIL_CONTEXT,
): string {
  const waitUntil =
    context.rateLimitedUntil !== null && context.rateLimitedUntil > context.now
      ? `waiting: the service asked us to wait until ${clockTime(context.rateLimitedUntil)}`
      : null;
  switch (f.state) {
    case 'uploaded':
      if (f.imageId === null) return 'set as the logo';
      return `image ${f.imageId}${f.existing ? ' (the service already had these bytes)' : ''}`;
    case 'uploading': {
      const sending =
        context.running === undefined ||
        (f.sha256 !== null && context.running.has(uploadKey(f.brandId, f.sha256)));
      // Left "uploading" by a run that stopped (a crash, a kill): nothing is being sent.
      if (!sending)
        return `interrupted after ${megabytes(f.bytesSent)} of ${megabytes(f.size)}: it will be sent again`;
      // While the service makes the key wait, a send it refused starts over afterwards.
      if (waitUntil !== null) return waitUntil;
      return `sent ${megabytes(f.bytesSent)} of ${megabytes(f.size)}`;
    }
    case 'waiting':
      return f.reason ?? waitUntil ?? 'queued';
    case 'skipped':
      return f.reason ?? f.code ?? '';
    case 'failed':
      return `${f.code ?? 'FAILED'}: ${f.reason ?? ''}${f.willRetry ? ' (will retry)' : ' (not retried until the file changes)'}`;
    case 'deleted':
      return f.imageId
        ? 'deleted on this computer; the service keeps its copy'
        : 'deleted on this computer';
  }
}

/** "14:53": the time of day a person reads on their own clock. */
function clockTime(at: number): string {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

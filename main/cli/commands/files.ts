// `files [BRAND] [--state S] [--json]`: every file of the brand folders the engine indexed,
// with its sync state and reason. Read from the local store only: it answers offline and
// without a key. BRAND is a brand ID or its folder name.
import type { Command } from 'commander';
import { action, type CliDeps } from '../action.ts';
import { table, UsageError } from '../output.ts';
import { resolveBrand } from '../resolve.ts';
import {
  brandDisplayName,
  fileStates,
  openStoreReadOnly,
  type FileState,
  type LocalFile,
  type Store,
} from '../../engine/store/index.ts';

interface FilesOptions {
  state?: string;
}

export function registerFiles(program: Command, deps: CliDeps): void {
  program
    .command('files')
    .description('every file of the brand folders with its sync state and reason')
    .argument('[brand]', 'a brand ID or the name of its folder (default: every brand)')
    .option('--state <state>', `only files in this state: ${fileStates.join(', ')}`)
    .option('--json', 'print one JSON document')
    .action(
      action(deps, async (ctx, command) => {
        const brandArg = command.processedArgs[0] as string | undefined;
        const { state } = command.opts<FilesOptions>();
        if (state !== undefined && !(fileStates as readonly string[]).includes(state)) {
          throw new UsageError(`--state must be one of ${fileStates.join(', ')} (got "${state}").`);
        }
        const brandId = brandArg === undefined ? undefined : await resolveBrand(ctx, brandArg);
        // Read-only: it works while the engine runs, and never creates the database.
        const store = openStoreReadOnly(ctx.config.dataDir);
        const doc =
          store === null
            ? emptyDocument(brandId, state as FileState | undefined)
            : withStore(store, () => filesDocument(store, brandId, state as FileState | undefined));
        ctx.output.result(doc, () => describeFiles(doc));
      }),
    );
}

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

function withStore<T>(store: Store, fn: () => T): T {
  try {
    return fn();
  } finally {
    store.close();
  }
}

/** No database yet: nothing was indexed on this machine. */
function emptyDocument(brandId: string | undefined, state?: FileState): FilesDocument {
  return {
    brand: brandId === undefined ? null : { id: brandId, name: null, folder: null },
    state: state ?? null,
    counts: Object.fromEntries(fileStates.map((s) => [s, 0])) as Record<FileState, number>,
    files: [],
  };
}

function describeFiles(doc: FilesDocument): string[] {
  if (doc.files.length === 0) {
    const where = doc.brand ? ` in "${doc.brand.folder ?? doc.brand.name ?? doc.brand.id}"` : '';
    return [
      `No ${doc.state ?? ''}${doc.state ? ' ' : ''}files${where}. Files appear here once \`brand-sync sync --once\` or \`brand-sync run\` has seen them.`,
    ];
  }
  const lines = table(
    ['FILE', 'STATE', 'DETAIL'],
    doc.files.map((f) => [`${f.folder ?? f.brandId}/${f.path}`, f.state, detail(f)]),
  );
  const counts = Object.entries(doc.counts)
    .filter(([s, n]) => n > 0 && (doc.state === null || s === doc.state))
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
  lines.push(`${doc.files.length} file${doc.files.length === 1 ? '' : 's'}: ${counts}`);
  return lines;
}

function detail(f: FilesDocument['files'][number]): string {
  switch (f.state) {
    case 'uploaded':
      if (f.imageId === null) return 'set as the logo';
      return `image ${f.imageId}${f.existing ? ' (the service already had these bytes)' : ''}`;
    case 'uploading':
      return `sent ${megabytes(f.bytesSent)} of ${megabytes(f.size)}`;
    case 'waiting':
      return f.reason ?? 'queued';
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

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

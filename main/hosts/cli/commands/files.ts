// `files [BRAND] [--state S] [--json]`: every file of the brand folders the engine indexed,
// with its sync state and reason. Read from the local store only: it answers offline and
// without a key. BRAND is a brand ID or its folder name.
import type { Command } from 'commander';
import { action, type CliDeps } from '../action.ts';
import { table, UsageError } from '../output.ts';
import { resolveBrand } from '../resolve.ts';
import {
  fileStates,
  openStoreReadOnly,
  type FileState,
  type Store,
} from '../../../engine/store/index.ts';
import {
  emptyFilesDocument,
  fileDetail,
  fileDetailContext,
  filesDocument,
  NO_DETAIL_CONTEXT,
  type FileDetailContext,
  type FilesDocument,
} from '../../../engine/views/files.ts';

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
        const { doc, context } =
          store === null
            ? {
                doc: emptyFilesDocument(brandId, state as FileState | undefined),
                context: NO_DETAIL_CONTEXT,
              }
            : withStore(store, () => ({
                doc: filesDocument(store, brandId, state as FileState | undefined),
                context: fileDetailContext(store),
              }));
        ctx.output.result(doc, () => describeFiles(doc, context));
      }),
    );
}

function describeFiles(doc: FilesDocument, context: FileDetailContext): string[] {
  if (doc.files.length === 0) {
    const where = doc.brand ? ` in "${doc.brand.folder ?? doc.brand.name ?? doc.brand.id}"` : '';
    return [
      `No ${doc.state ?? ''}${doc.state ? ' ' : ''}files${where}. Files appear here once \`brand-sync sync --once\` or \`brand-sync run\` has seen them.`,
    ];
  }
  const lines = table(
    ['FILE', 'STATE', 'DETAIL'],
    doc.files.map((f) => [`${f.folder ?? f.brandId}/${f.path}`, f.state, fileDetail(f, context)]),
  );
  const counts = Object.entries(doc.counts)
    .filter(([s, n]) => n > 0 && (doc.state === null || s === doc.state))
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
  lines.push(`${doc.files.length} file${doc.files.length === 1 ? '' : 's'}: ${counts}`);
  return lines;
}

function withStore<T>(store: Store, fn: () => T): T {
  try {
    return fn();
  } finally {
    store.close();
  }
}

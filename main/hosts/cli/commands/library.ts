// `library list BRAND [--type T] [--search TEXT] [--limit N] [--cursor C] [--removed] [--json]`:
// a brand's Library from the local mirror only, newest first, so it answers with the
// service unreachable and without a key; it says how fresh the mirror is. Media types and
// sources the app does not know are shown as they are.
import { count } from '../../../engine/core/plural.ts';
import type { Command } from 'commander';
import { action, type CliDeps } from '../action.ts';
import type { CliContext } from '../context.ts';
import { table, UsageError } from '../output.ts';
import { openStoreReadOnly } from '../../../engine/store/index.ts';
import { lookupIn, resolveBrand } from '../resolve.ts';
import { ago } from '../time-format.ts';
import { brandDisplayName, isStoreError } from '../../../engine/store/index.ts';
import type { LibraryItem, Store } from '../../../engine/store/index.ts';
import { librarySyncScope } from '../../../engine/library/index.ts';
import { registerLibraryOpen } from './library-open.ts';

interface ListOptions {
  type?: string;
  search?: string;
  limit?: string;
  cursor?: string;
  removed?: boolean;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;

export function registerLibrary(program: Command, deps: CliDeps): void {
  const library = program.command('library').description("the brands' Libraries, offline");
  library
    .command('list')
    .description("a brand's Library from the local mirror, newest first (works offline)")
    .argument('<brand>', 'the brand ID, the name of its folder, or its name')
    .option('--type <type>', 'only this media type (image, video, audio, or any other)')
    .option('--search <text>', 'only items whose description has these words')
    .option('--limit <n>', `items per page, 1-${MAX_LIMIT} (default ${DEFAULT_LIMIT})`)
    .option('--cursor <cursor>', 'the next page: the cursor the previous page ended with')
    .option('--removed', 'the items that left the Library instead')
    .option('--json', 'print one JSON document')
    .action(action(deps, listLibrary));
  registerLibraryOpen(library, deps);
}

async function listLibrary(ctx: CliContext, command: Command): Promise<void> {
  const arg = command.processedArgs[0] as string;
  const options = command.opts<ListOptions>();
  const query = queryOf(options);
  const store = openStoreReadOnly(ctx.config.dataDir);
  try {
    // No database yet: an ID still gets its (never mirrored) answer, a name a clear error.
    const brandId = store === null ? await resolveBrand(ctx, arg) : lookupIn(store, arg);
    const doc = libraryDocument(store, brandId, query);
    ctx.output.result(doc, () => describeLibrary(doc, arg, options, Date.now()));
  } finally {
    store?.close();
  }
}

interface Query {
  type?: string;
  search?: string;
  limit: number;
  cursor?: string;
  removed: boolean;
}

function queryOf(options: ListOptions): Query {
  const query: Query = { limit: DEFAULT_LIMIT, removed: options.removed === true };
  if (options.type !== undefined) {
    if (options.type.trim() === '') throw new UsageError('--type needs a media type.');
    query.type = options.type.trim();
  }
  if (options.search !== undefined) {
    if (!/[\p{L}\p{N}]/u.test(options.search)) {
      throw new UsageError(`--search needs at least one word (got "${options.search}").`);
    }
    query.search = options.search;
  }
  if (options.limit !== undefined) {
    const n = Number(options.limit);
    if (!/^\d+$/.test(options.limit.trim()) || n < 1 || n > MAX_LIMIT) {
      throw new UsageError(
        `--limit must be a whole number from 1 to ${MAX_LIMIT} (got "${options.limit}").`,
      );
    }
    query.limit = n;
  }
  if (options.cursor !== undefined) query.cursor = options.cursor;
  return query;
}

export type LibraryDocument = ReturnType<typeof libraryDocument>;

/** The stable --json document: {brand, freshness, items, nextCursor}. */
export function libraryDocument(store: Store | null, brandId: string, query: Query) {
  const brand = store?.brands.get(brandId);
  const state = store?.syncState.get(librarySyncScope, brandId);
  let page: { items: LibraryItem[]; nextCursor: string | null } = { items: [], nextCursor: null };
  if (store !== null) {
    try {
      page = store.library.list(brandId, {
        limit: query.limit,
        removed: query.removed,
        ...(query.type === undefined ? {} : { type: query.type }),
        ...(query.search === undefined ? {} : { search: query.search }),
        ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
      });
    } catch (error) {
      if (isStoreError(error) && error.code === 'INVALID_CURSOR') {
        throw new UsageError(`--cursor: ${error.message}`);
      }
      throw error;
    }
  }
  return {
    brand: {
      id: brandId,
      name: brand === undefined ? null : brandDisplayName(brand),
      folder: brand?.folderName ?? null,
      deletedRemotely: brand?.deletedRemotely ?? false,
      items: store?.library.count(brandId) ?? 0,
    },
    freshness: {
      mirroredAt: iso(state?.lastRefreshAt),
      fullPassAt: iso(state?.lastFullPassAt),
      lastAttemptAt: iso(state?.lastAttemptAt),
      lastError: errorOf(state?.lastError),
    },
    items: page.items.map((item) => ({
      id: item.id,
      type: item.type,
      source: item.source,
      mimeType: item.mimeType,
      fileSize: item.fileSize,
      width: item.width,
      height: item.height,
      durationMs: item.durationMs,
      description: item.description,
      url: item.url,
      addedToLibraryAt: item.addedToLibraryAt,
      createdAt: item.createdAt,
      generationId: item.generationId,
      workspaceId: item.workspaceId,
      removedAt: iso(item.removedAt),
    })),
    nextCursor: page.nextCursor,
  };
}

function describeLibrary(
  doc: LibraryDocument,
  arg: string,
  options: ListOptions,
  now: number,
): string[] {
  const name = doc.brand.name ?? doc.brand.id;
  const { freshness } = doc;
  const lines: string[] = [];
  if (freshness.mirroredAt === null) {
    lines.push(
      `The Library of ${name} has never been mirrored: run \`brand-sync sync --once\` to mirror it.`,
    );
  } else {
    lines.push(
      `${name}: Library mirrored ${ago(freshness.mirroredAt, now)}, ${count(doc.brand.items, 'item')}.`,
    );
  }
  if (
    freshness.lastError !== null &&
    freshness.lastAttemptAt !== null &&
    (freshness.mirroredAt === null || freshness.lastAttemptAt > freshness.mirroredAt)
  ) {
    lines.push(
      `The last attempt (${ago(freshness.lastAttemptAt, now)}) failed: ${freshness.lastError.code}: ${freshness.lastError.message}`,
    );
  }
  if (doc.brand.deletedRemotely) {
    lines.push('The brand was deleted on the service; this is the copy mirrored before.');
  }
  if (doc.items.length === 0) {
    if (freshness.mirroredAt !== null) {
      const filtered = options.type !== undefined || options.search !== undefined;
      lines.push(
        options.removed
          ? 'No item has left the Library.'
          : filtered
            ? 'No items match.'
            : 'The Library is empty.',
      );
    }
    return lines;
  }
  lines.push(
    ...table(
      ['ADDED', 'TYPE', 'SOURCE', 'SIZE', 'DESCRIPTION', 'ID'],
      doc.items.map((item) => [
        shortTime(item.addedToLibraryAt ?? item.createdAt),
        item.type,
        item.source ?? '-',
        item.fileSize === null ? '-' : size(item.fileSize),
        clip(item.description ?? '', 48),
        item.id,
      ]),
    ),
  );
  if (doc.nextCursor !== null) {
    lines.push(
      `More: brand-sync library list ${shellQuote(arg)}${flags(options)} --cursor ${doc.nextCursor}`,
    );
  }
  return lines;
}

/** The options of this listing again, for the "More:" line. */
function flags(options: ListOptions): string {
  return [
    options.type === undefined ? '' : ` --type ${shellQuote(options.type)}`,
    options.search === undefined ? '' : ` --search ${shellQuote(options.search)}`,
    options.limit === undefined ? '' : ` --limit ${options.limit}`,
    options.removed ? ' --removed' : '',
  ].join('');
}

function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function shortTime(at: string | null): string {
  if (at === null) return '-';
  const ms = Date.parse(at);
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 16).replace('T', ' ') : at;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

function errorOf(value: unknown): { code: string; message: string } | null {
  if (value === null || typeof value !== 'object') return null;
  const { code, message } = value as { code?: unknown; message?: unknown };
  return {
    code: typeof code === 'string' ? code : 'ERROR',
    message: typeof message === 'string' ? message : '',
  };
}

function iso(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}

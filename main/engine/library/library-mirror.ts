// Keeps each brand's Library mirrored in the store, page by page (never the whole Library
// in memory).
//
// - A full pass reads every page; at its end, items it did not see left the Library.
// - A refresh reads from the newest item and stops at the first page whose items were all
//   mirrored by a sync that *completed*: an unchanged Library costs one request. Items
//   written by a sync that crashed half-way do not count as known, so a crash between two
//   pages of new items cannot hide the second page from the next refresh.
// - A refresh that reaches the end of the list saw everything: it counts as a full pass.
import type { LibraryItemInput, Store } from '../store/index.ts';
import { libraryFullPassIntervalSetting } from '../store/index.ts';
import type { LibraryPageSource } from './library-page-source.ts';
import { toLibraryItem } from './media-item.ts';
import { MirrorError } from './mirror-error.ts';

export type MirrorMode = 'auto' | 'full' | 'refresh';

export interface MirrorOptions {
  mode?: MirrorMode;
  signal?: AbortSignal;
  /** Items read so far (the total is unknown until the end). */
  onProgress?: (itemsRead: number) => void;
}

export interface MirrorResult {
  brandId: string;
  mode: 'full' | 'refresh';
  /** Whether the whole Library was read (removals were then detected). */
  fullPass: boolean;
  requests: number;
  itemsRead: number;
  inserted: number;
  updated: number;
  unchanged: number;
  removed: number;
  /** Items without a usable ID (skipped). */
  invalid: number;
  /**
   * The IDs of the items new to the mirror, so a shown Library adds them in place; null when
   * there were too many to name (a first full pass): then it reads the Library again.
   */
  addedIds: string[] | null;
  /** The IDs of the items that left the Library (a full pass), likewise; null when too many. */
  removedIds: string[] | null;
}

/** New or removed items named one by one up to this many per sync. */
const ADDED_NAMED = 500;

export interface LibraryMirrorOptions {
  store: Store;
  source: LibraryPageSource;
  /** Items per request (1-100; default 100, the service's maximum). */
  pageSize?: number;
  now?: () => number;
}

export const librarySyncScope = 'library';

export class LibraryMirror {
  private readonly store: Store;
  private readonly source: LibraryPageSource;
  private readonly pageSize: number;
  private readonly now: () => number;

  constructor(options: LibraryMirrorOptions) {
    const pageSize = options.pageSize ?? 100;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
      throw new MirrorError('INVALID_OPTION', `Library page size must be 1-100 (got ${pageSize}).`);
    }
    this.store = options.store;
    this.source = options.source;
    this.pageSize = pageSize;
    this.now = options.now ?? options.store.now;
  }

  /** 'full' when the brand never had a complete full pass or the last one is older than the setting. */
  modeFor(brandId: string): 'full' | 'refresh' {
    const state = this.store.syncState.get(librarySyncScope, brandId);
    if (state.fullPassSeq === null || state.lastFullPassAt === null) return 'full';
    const interval = this.store.settings.read(libraryFullPassIntervalSetting);
    return this.now() - state.lastFullPassAt >= interval ? 'full' : 'refresh';
  }

  async syncBrand(brandId: string, options: MirrorOptions = {}): Promise<MirrorResult> {
    const requested = options.mode ?? 'auto';
    const mode = requested === 'auto' ? this.modeFor(brandId) : requested;
    const trustedSeq = this.store.syncState.get(librarySyncScope, brandId).completedSeq;
    const seq = this.store.syncState.begin(librarySyncScope, brandId, this.now());
    const result: MirrorResult = {
      brandId,
      mode,
      fullPass: false,
      requests: 0,
      itemsRead: 0,
      inserted: 0,
      updated: 0,
      unchanged: 0,
      removed: 0,
      invalid: 0,
      addedIds: [],
      removedIds: [],
    };
    // A full pass asks for the next page before writing the current one, so the service
    // prepares it meanwhile. A refresh may stop after this page: it asks ahead only when the
    // page holds an item the mirror never had (then the page cannot be all known).
    const readsEveryPage = mode === 'full';
    const local = new AbortController();
    const signal =
      options.signal === undefined ? local.signal : AbortSignal.any([options.signal, local.signal]);
    const fetchPage = (cursor: string | undefined) => {
      const request = this.source.listLibraryPage(
        brandId,
        { limit: this.pageSize, ...(cursor === undefined ? {} : { cursor }) },
        { signal },
      );
      result.requests++;
      request.catch(() => {}); // awaited below, or abandoned on an error: never unhandled
      return request;
    };
    try {
      const seen = new Set<string>();
      let pending: ReturnType<typeof fetchPage> | null = fetchPage(undefined);
      while (pending !== null) {
        const page = await pending;
        pending = null;
        options.signal?.throwIfAborted();
        let next: string | undefined;
        if (page.hasMore) {
          next =
            typeof page.nextCursor === 'string' && page.nextCursor !== ''
              ? page.nextCursor
              : undefined;
          if (next === undefined) {
            throw new MirrorError(
              'BROKEN_PAGING',
              'The service said the Library has more items but gave no cursor.',
            );
          }
          // Only the cursors are kept, not the items: a million-item Library holds 10,000 strings.
          if (seen.has(next)) {
            throw new MirrorError(
              'BROKEN_PAGING',
              'The service handed out the same Library cursor twice.',
            );
          }
          seen.add(next);
        }
        const items: LibraryItemInput[] = [];
        for (const raw of page.items) {
          const item = toLibraryItem(raw);
          if (item === null) result.invalid++;
          else items.push(item);
        }
        // The page's oldest item is the likeliest to be known: when even it is new, read on.
        const oldest = items[items.length - 1];
        const readsOn =
          readsEveryPage ||
          (oldest !== undefined && this.store.library.get(oldest.id) === undefined);
        if (next !== undefined && readsOn) {
          pending = fetchPage(next);
          // The page asked for ahead leaves before this page's writes hold the thread.
          await new Promise((resolve) => setImmediate(resolve));
          options.signal?.throwIfAborted();
        }
        const stored = this.store.library.upsertPage(
          brandId,
          items,
          { seq, trustedSeq },
          this.now(),
        );
        if (result.addedIds !== null && result.addedIds.length + stored.added.length <= ADDED_NAMED)
          result.addedIds.push(...stored.added);
        else result.addedIds = null;
        result.itemsRead += page.items.length;
        result.inserted += stored.inserted;
        result.updated += stored.updated;
        result.unchanged += stored.unchanged;
        options.onProgress?.(result.itemsRead);
        if (mode === 'refresh' && items.length > 0 && stored.trustedKnown === items.length) break;
        if (next === undefined) {
          result.fullPass = true;
          break;
        }
        pending ??= fetchPage(next);
      }
      const at = this.now();
      this.store.transaction(() => {
        if (result.fullPass) {
          const gone = this.store.library.markUnseenRemoved(brandId, seq, at);
          result.removed = gone.length;
          result.removedIds = gone.length <= ADDED_NAMED ? gone : null;
        }
        this.store.syncState.complete(
          librarySyncScope,
          brandId,
          seq,
          { fullPass: result.fullPass },
          at,
        );
      });
      return result;
    } catch (error) {
      try {
        this.store.syncState.fail(librarySyncScope, brandId, describe(error), this.now());
      } catch {
        // The store itself is failing; the original error says more.
      }
      throw error;
    } finally {
      local.abort(); // a prefetched page nobody will read
    }
  }
}

function describe(error: unknown): { code: string; message: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return {
    code: typeof code === 'string' ? code : 'ERROR',
    message: error instanceof Error ? error.message : String(error),
  };
}

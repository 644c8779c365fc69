// A page of a brand's Library for the window, from the local mirror (offline): items in the
// contract's shape, whether each one's file is in the media cache, the type counts for the
// filter, and the total for a virtual list's height.
import type { LibraryItemDoc, LibraryPageDoc } from '../../../contract/index.ts';
import type { LibraryItem, Store } from '../store/index.ts';
import { libraryItemCaption, libraryItemName } from './library-item-name.ts';
import { iso } from './status.ts';

export function libraryItemDoc(store: Store, item: LibraryItem): LibraryItemDoc {
  return {
    id: item.id,
    brandId: item.brandId,
    type: item.type,
    source: item.source,
    mimeType: item.mimeType,
    fileSize: item.fileSize,
    durationMs: item.durationMs,
    width: item.width,
    height: item.height,
    description: item.description,
    addedAt: item.addedToLibraryAt,
    createdAt: item.createdAt,
    cached: store.mediaCache.get(item.id) !== undefined,
    file: { area: 'media', brandId: item.brandId, path: item.id },
    name: libraryItemName(item),
    localPath: item.fileName,
    caption: libraryItemCaption(item),
  };
}

/** A page of a brand's Library, or (brandId null) of every brand's at once. */
export function libraryPage(
  store: Store,
  brandId: string | null,
  query: {
    type?: string | undefined;
    search?: string | undefined;
    cursor?: string | null | undefined;
    limit?: number | undefined;
  },
): LibraryPageDoc {
  const search = query.search?.trim() ? query.search.trim() : undefined;
  const page = store.library.list(brandId, {
    ...(query.type ? { type: query.type } : {}),
    ...(search ? { search } : {}),
    cursor: query.cursor ?? null,
    limit: query.limit ?? 200,
  });
  return {
    brandId,
    items: page.items.map((item) => libraryItemDoc(store, item)),
    nextCursor: page.nextCursor,
    total: search ? null : store.library.count(brandId, query.type ? { type: query.type } : {}),
    types: store.library.typeCounts(brandId),
    lastRefreshAt: iso(
      brandId === null
        ? oldestRefresh(store)
        : store.syncState.get('library', brandId).lastRefreshAt,
    ),
  };
}

/** Every brand's Library is at least this fresh (the oldest mirror's time). */
function oldestRefresh(store: Store): number | null {
  let oldest: number | null = null;
  for (const brand of store.brands.list()) {
    const at = store.syncState.get('library', brand.id).lastRefreshAt;
    if (at !== null && (oldest === null || at < oldest)) oldest = at;
  }
  return oldest;
}

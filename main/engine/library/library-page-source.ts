// Where the mirror reads a brand's Library from. The API client fits this shape (see
// clientPageSource); the mirror needs nothing else, so it can be tested and benchmarked
// against any source with the same answers.
import type { ApiClient } from '../api/index.ts';

export interface LibraryPageQuery {
  limit?: number;
  cursor?: string;
}

export interface LibraryPageAnswer {
  /** Media files, newest first; validated again by the mirror (unknown fields kept). */
  items: readonly unknown[];
  nextCursor?: string | null;
  hasMore: boolean;
}

export interface LibraryPageSource {
  listLibraryPage(
    brandId: string,
    query: LibraryPageQuery,
    options?: { signal?: AbortSignal },
  ): Promise<LibraryPageAnswer>;
}

/** The API client as a page source: the items as sent, which the mirror normalizes itself. */
export function clientPageSource(client: Pick<ApiClient, 'listLibraryPageRaw'>): LibraryPageSource {
  return {
    listLibraryPage: (brandId, query, options) =>
      client.listLibraryPageRaw(brandId, query, options),
  };
}

// Where the mirror reads a brand's Library from. The API client's `listLibraryPage`
// fits this shape; the mirror needs nothing else, so it can be tested and benchmarked
// against any source with the same answers.

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

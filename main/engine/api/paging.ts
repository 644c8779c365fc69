// Async iteration over the paged lists (brands, Library, Brand Edits). A page that says
// "more" without a cursor, or hands back a cursor already seen, is an invalid answer, not
// an endless loop.
import { invalidResponse } from './http.ts';
import type { Page } from './schemas.ts';

export type PageFetcher<T> = (cursor: string | undefined, signal?: AbortSignal) => Promise<Page<T>>;

/** Yields whole pages, following nextCursor until hasMore is false. */
export async function* iteratePages<T>(
  endpoint: string,
  fetchPage: PageFetcher<T>,
  options: { signal?: AbortSignal; cursor?: string } = {},
): AsyncGenerator<Page<T>, void, undefined> {
  const seen = new Set<string>();
  let cursor = options.cursor;
  for (;;) {
    const page = await fetchPage(cursor, options.signal);
    yield page;
    if (!page.hasMore) return;
    const next = page.nextCursor;
    if (!next) throw invalidResponse(endpoint, 'hasMore is true but nextCursor is missing');
    if (seen.has(next)) throw invalidResponse(endpoint, 'nextCursor repeats an earlier cursor');
    seen.add(next);
    cursor = next;
  }
}

/** Yields the items of every page in order. */
export async function* iterateItems<T>(
  endpoint: string,
  fetchPage: PageFetcher<T>,
  options: { signal?: AbortSignal; cursor?: string } = {},
): AsyncGenerator<T, void, undefined> {
  for await (const page of iteratePages(endpoint, fetchPage, options)) yield* page.items;
}

/** Collects every item (for small lists such as brands). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

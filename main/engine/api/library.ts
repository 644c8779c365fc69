// The Library of a brand (images, video, audio) and single media files (GET /videos/{id}).
import { z } from 'zod';
import { LIBRARY_QUERY } from './assumed.ts';
import { byId } from './endpoint.ts';
import { seg, type Http } from './http.ts';
import { requireIntInRange, requireUuid } from './input.ts';
import { LibraryPage, MediaFile } from './schemas.ts';
import type { CallOptions } from './brands.ts';

export interface LibraryQuery {
  /** image, video or audio (the service may add families; any string is passed on). */
  type?: string;
  limit?: number;
  cursor?: string;
}

export async function listLibraryPage(
  http: Http,
  brandId: string,
  query: LibraryQuery = {},
  options: CallOptions = {},
): Promise<LibraryPage> {
  return libraryCall(http, brandId, query, options, LibraryPage);
}

/**
 * A Library page with only its envelope checked: the items are passed on as sent. For the
 * Library mirror, which normalizes every item leniently itself (an item lacking a field is
 * still mirrored, not the whole page refused) and reads Libraries of a million items.
 *
 * Kept lean for memory (bench/library-mirror): no zod copy of every item, and no
 * `.transform()`. Measured with zod 4.6: parsing a page through a schema with a transform
 * left about half of each page's objects alive through the young-generation GCs (without
 * one: under 1 %), which grew V8's young generation to its maximum and the mirror's peak
 * RSS past 250 MB at 1,000,000 items. nextCursor is normalized in plain code instead.
 */
const RawLibraryPageSchema = z.looseObject({
  items: z.array(z.unknown()),
  nextCursor: z.string().nullish(),
  hasMore: z.boolean(),
});

export interface RawLibraryPage {
  items: unknown[];
  nextCursor: string | null;
  hasMore: boolean;
  [field: string]: unknown;
}

export async function listLibraryPageRaw(
  http: Http,
  brandId: string,
  query: LibraryQuery = {},
  options: CallOptions = {},
): Promise<RawLibraryPage> {
  const page = await libraryCall(http, brandId, query, options, RawLibraryPageSchema);
  return { ...page, nextCursor: page.nextCursor ?? null };
}

function libraryCall<S extends z.ZodType>(
  http: Http,
  brandId: string,
  query: LibraryQuery,
  options: CallOptions,
  schema: S,
): Promise<z.output<S>> {
  const endpoint = 'GET /brands/{id}/library';
  requireUuid(brandId, 'brand ID', endpoint);
  if (query.limit !== undefined) requireIntInRange(query.limit, 'limit', 1, 100, endpoint);
  return http.call({
    method: 'GET',
    endpoint,
    path: `/brands/${seg(brandId)}/library`,
    query: {
      [LIBRARY_QUERY.type]: query.type,
      [LIBRARY_QUERY.limit]: query.limit,
      [LIBRARY_QUERY.cursor]: query.cursor,
    },
    schema,
    resend: 'resend',
    signal: options.signal,
  }) as Promise<z.output<S>>;
}

export const getVideo = byId('GET /videos/{id}', 'video ID', MediaFile, (id) => `/videos/${id}`);

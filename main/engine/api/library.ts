// The Library of a brand (images, video, audio) and single media files (GET /videos/{id}).
import { LIBRARY_QUERY } from './assumed.ts';
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
    schema: LibraryPage,
    resend: 'resend',
    signal: options.signal,
  });
}

export async function getVideo(
  http: Http,
  id: string,
  options: CallOptions = {},
): Promise<MediaFile> {
  const endpoint = 'GET /videos/{id}';
  requireUuid(id, 'video ID', endpoint);
  return http.call({
    method: 'GET',
    endpoint,
    path: `/videos/${seg(id)}`,
    schema: MediaFile,
    resend: 'resend',
    signal: options.signal,
  });
}

// Paths and parameter names that the interface document does not give, taken from
// docs/service.md ("Where we assumed"). Each is "assumed: not in the interface document"; the response shapes that go
// with them are in schemas.ts. A 404/405 on an assumed endpoint hides the feature
// (http.ts, isMissingEndpoint) instead of failing the engine.

/** assumed: not in the interface document (docs/service.md, Image wait parameter name; same pair on GET /brands/{id}). */
export function waitQuery(seconds: number): { wait: 'true'; timeout: number } {
  return { wait: 'true', timeout: seconds };
}
/** assumed: not in the interface document: bounds of the wait parameter (the document gives 1-295 for images). */
export const WAIT_SECONDS = { min: 1, max: 295, default: 120 } as const;

/** assumed: not in the interface document (docs/service.md, Library query parameter names). */
export const LIBRARY_QUERY = { type: 'type', limit: 'limit', cursor: 'cursor' } as const;

/** assumed: not in the interface document (docs/service.md, `GET /brands` list shape: query names). */
export const BRAND_LIST_QUERY = {
  workspaceId: 'workspaceId',
  limit: 'limit',
  cursor: 'cursor',
} as const;

/** assumed: not in the interface document (docs/service.md, Path of the image edit operation). */
export const IMAGE_EDIT_PATH = (imageId: string): string => `/images/${imageId}/edit`;

/** assumed: not in the interface document (docs/service.md, Listing Brand Edits). */
export const EDITS_LIST_PATH = (brandId: string): string => `/brands/${brandId}/edits`;

/** assumed: not in the interface document (ours): where the answer to an edit's question goes. */
export const EDIT_ANSWER_PATH = (brandId: string, editId: string): string =>
  `/brands/${brandId}/edits/${editId}/answer`;

/** assumed: not in the interface document (docs/service.md, Staging a local file). */
export const STAGING_PATH = '/uploads';

/** assumed: not in the interface document (docs/service.md, Workspaces and account). */
export const WORKSPACES_PATH = '/workspaces';
/** assumed: not in the interface document (docs/service.md, Workspaces and account). */
export const ACCOUNT_PATH = '/account';

/** assumed: not in the interface document (docs/service.md, 10 MB upload limit): checked before sending. */
export const MAX_UPLOAD_BYTES = 10_000_000;

/** assumed: not in the interface document (docs/service.md, Shapes of non-website sources; PDFs too): 100 MiB each. */
export const MAX_SOURCE_FILE_BYTES = 100 * 2 ** 20;
/** assumed: as above, 256 MiB for all local files of one creation together. */
export const MAX_SOURCE_TOTAL_BYTES = 256 * 2 ** 20;

/** assumed: not in the interface document (docs/service.md, Listing Brand Edits): the page's query names. */
export const EDITS_QUERY = { cursor: 'cursor', limit: 'limit' } as const;

/** The interface document's limits of an image edit: the prompt's length, the references. */
export const IMAGE_EDIT_LIMITS = { minPrompt: 1, maxPrompt: 2000, maxReferences: 9 } as const;

/** assumed: not in the interface document (docs/service.md, shapes of non-website sources). */
export const SOURCE_LIMITS = { maxWebsites: 1, maxInstagram: 1 } as const;

/** assumed: not in the interface document (ours): how often to poll a resource that has no `wait`. */
export const DEFAULT_POLL_INTERVAL_MS = 2_000;

/** assumed: not in the interface document (ours): the form field that carries the file in multipart uploads. */
export const MULTIPART_FILE_FIELD = 'file';

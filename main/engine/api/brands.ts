// Brands (the generally available flow): list, get (with wait), create, delete.
import { randomUUID } from 'node:crypto';
import { BRAND_LIST_QUERY, SOURCE_LIMITS } from './assumed.ts';
import { byId, createWithKey, sendIdempotent, type Endpoint } from './endpoint.ts';
import { longPoll, type LongPollOptions } from './long-poll.ts';
import { ApiError } from './errors.ts';
import { seg, type Http } from './http.ts';
import { invalidInput, requireIntInRange, requireLength, requireUuid } from './input.ts';
import {
  Brand,
  BrandCreation,
  BrandListPage,
  DeletedBrand,
  DUPLICATE_BRAND_CODE,
  DuplicateBrands,
  type DuplicateBrand,
  type Page,
} from './schemas.ts';

export interface CallOptions {
  signal?: AbortSignal;
}

export interface ListBrandsQuery {
  workspaceId?: string;
  limit?: number;
  cursor?: string;
}

export async function listBrandsPage(
  http: Http,
  query: ListBrandsQuery = {},
  options: CallOptions = {},
): Promise<Page<Brand>> {
  const endpoint = 'GET /brands';
  if (query.limit !== undefined) requireIntInRange(query.limit, 'limit', 1, 100, endpoint);
  return http.call({
    method: 'GET',
    endpoint,
    path: '/brands',
    query: {
      [BRAND_LIST_QUERY.workspaceId]: query.workspaceId,
      [BRAND_LIST_QUERY.limit]: query.limit,
      [BRAND_LIST_QUERY.cursor]: query.cursor,
    },
    schema: BrandListPage,
    resend: 'resend',
    signal: options.signal,
  });
}

export interface GetBrandOptions extends CallOptions, LongPollOptions {}

export const getBrand = byId('GET /brands/{id}', 'brand ID', Brand, (id) => `/brands/${id}`, {
  more: (options: GetBrandOptions, endpoint) => longPoll(options, endpoint),
});

export async function deleteBrand(
  http: Http,
  id: string,
  options: CallOptions = {},
): Promise<DeletedBrand> {
  const endpoint = 'DELETE /brands/{id}';
  requireUuid(id, 'brand ID', endpoint);
  return http
    .call({
      method: 'DELETE',
      endpoint,
      path: `/brands/${seg(id)}`,
      schema: DeletedBrand,
      allowEmpty: true,
      resend: 'resend',
      // A retry after a lost answer finds the brand gone: the first send did the work.
      resolveAfterUncertain: (error: ApiError) =>
        error.status === 404 && error.code === 'BRAND_NOT_FOUND' ? { value: { id } } : undefined,
      signal: options.signal,
    })
    .then((deleted) => deleted ?? { id });
}

// ---- creation ----------------------------------------------------------------------------

/** Sources are ordered; field names beyond `{kind: website, url}` are the assumption of docs/service.md. */
export type BrandSource =
  | { kind: 'website'; url: string }
  | { kind: 'instagram'; url: string }
  | { kind: 'pdf' | 'file'; url: string }
  | { kind: 'pdf' | 'file'; uploadId: string };

export interface CreateBrandInput {
  sources: BrandSource[];
  instructions?: string;
  allowDuplicate?: boolean;
  /** A real team workspace ID; omitted for the personal workspace. */
  workspaceId?: string;
}

export interface CreateBrandBody {
  sources: BrandSource[];
  instructions?: string;
  allowDuplicate?: boolean;
  workspaceId?: string;
}

/** What the queue persists before the first send, so that a retry after a crash re-sends the same thing. */
export interface PreparedBrandCreation {
  idempotencyKey: string;
  body: CreateBrandBody;
}

const CREATE: Endpoint = 'POST /brands';

/** Validates the input and fixes the key and body of one creation (a fresh key each time). */
export function prepareBrandCreation(
  input: CreateBrandInput,
  options: { idempotencyKey?: string } = {},
): PreparedBrandCreation {
  const idempotencyKey = options.idempotencyKey ?? randomUUID();
  requireLength(idempotencyKey, 'Idempotency-Key', 1, 255, CREATE);
  if (!Array.isArray(input.sources) || input.sources.length === 0) {
    throw invalidInput(
      CREATE,
      'A brand needs at least one source (a website, a PDF or an Instagram profile).',
    );
  }
  const count = (kind: string): number => input.sources.filter((s) => s.kind === kind).length;
  if (count('website') > SOURCE_LIMITS.maxWebsites) {
    throw invalidInput(CREATE, 'A brand takes at most one website source.');
  }
  if (count('instagram') > SOURCE_LIMITS.maxInstagram) {
    throw invalidInput(CREATE, 'A brand takes at most one Instagram profile.');
  }
  if (input.instructions !== undefined) {
    requireLength(input.instructions, 'instructions', 0, 4000, CREATE);
  }
  if (input.workspaceId !== undefined) requireUuid(input.workspaceId, 'workspace ID', CREATE);
  const body: CreateBrandBody = {
    sources: input.sources.map((source) => ({ ...source })),
    ...(input.instructions ? { instructions: input.instructions } : {}),
    ...(input.allowDuplicate ? { allowDuplicate: true } : {}),
    ...(input.workspaceId ? { workspaceId: input.workspaceId } : {}),
  };
  return { idempotencyKey, body };
}

/**
 * Sends a prepared creation. An uncertain outcome (no answer, 5xx) is re-sent with the same
 * key and the same body, as the document requires; 409 IDEMPOTENCY_CONFLICT means the key
 * was used for another body and is never retried.
 */
export async function sendBrandCreation(
  http: Http,
  prepared: PreparedBrandCreation,
  options: CallOptions = {},
): Promise<BrandCreation> {
  return sendIdempotent(http, CREATE, '/brands', prepared, BrandCreation, options);
}

export interface CreateBrandOptions extends CallOptions {
  /** Re-use a key persisted earlier (same body!); otherwise a fresh one is made. */
  idempotencyKey?: string;
  /** Called with the key before the first send, so the caller can persist it. */
  onKey?: (key: string, body: CreateBrandBody) => void | Promise<void>;
}

export async function createBrand(
  http: Http,
  input: CreateBrandInput,
  options: CreateBrandOptions = {},
): Promise<BrandCreation & { idempotencyKey: string }> {
  const prepared = prepareBrandCreation(input, options);
  return createWithKey(prepared, options.onKey, () => sendBrandCreation(http, prepared, options));
}

/**
 * The existing brands a creation was refused for (its website matches them), or undefined
 * when the error is something else. Creating anyway takes `allowDuplicate: true` and a new key.
 */
export function duplicateBrandsOf(error: unknown): DuplicateBrand[] | undefined {
  if (!(error instanceof ApiError) || error.status !== 409 || error.code !== DUPLICATE_BRAND_CODE)
    return undefined;
  const parsed = DuplicateBrands.safeParse(error.data);
  return parsed.success ? parsed.data.brands : [];
}

/**
 * Whether a creation was refused because a staged upload it names is gone (expired, or never
 * completed): assumed (docs/service.md, Staging a local file, and Rules: Staged uploads expire) to be 400
 * INVALID_SOURCE whose `data.index` names a source sent as `uploadId`, or with no index at
 * all when the body holds a staged source. Returns the indexes to stage again, or undefined.
 */
export function goneStagedUploads(
  error: unknown,
  body: Pick<CreateBrandBody, 'sources'>,
): number[] | undefined {
  if (!(error instanceof ApiError) || error.status !== 400 || error.code !== 'INVALID_SOURCE')
    return undefined;
  const staged = body.sources.flatMap((source, index) =>
    'uploadId' in source && typeof source.uploadId === 'string' ? [index] : [],
  );
  if (staged.length === 0) return undefined;
  const index = (error.data as { index?: unknown } | undefined)?.index;
  if (index === undefined) return staged;
  return typeof index === 'number' && staged.includes(index) ? staged : undefined;
}

// ---- statuses ---------------------------------------------------------------------------

/** The document: the caller polls again while the status is analyzing, and stops otherwise. */
export function isBrandSettled(brand: Pick<Brand, 'status'>): boolean {
  return brand.status !== 'analyzing';
}

/** Creation failure codes, grouped by what to do next (interface document, Errors). */
const FIX_INPUT_CODES = new Set([
  'INVALID_URL',
  'UNSUPPORTED_SOURCE',
  'WEBSITE_SOURCE_REJECTED',
  'PDF_SOURCE_REJECTED',
  'SOURCE_REJECTED',
  'INSTAGRAM_PROFILE_NOT_FOUND',
  'INSTAGRAM_PRIVATE_PROFILE',
]);
const RETRY_LATER_CODES = new Set([
  'SCRAPE_FAILED',
  'INSTAGRAM_FETCH_FAILED',
  'PDF_PROCESSING_FAILED',
  'BRAND_GUIDE_BUILD_FAILED',
  'INTERNAL_ERROR',
]);

export type BrandFailureAction = 'fix-input' | 'retry-later' | 'unknown';

export function brandFailureAction(code: string | null | undefined): BrandFailureAction {
  if (code && FIX_INPUT_CODES.has(code)) return 'fix-input';
  if (code && RETRY_LATER_CODES.has(code)) return 'retry-later';
  return 'unknown';
}

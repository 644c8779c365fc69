// Brand Edits: list and get (assumed endpoints, docs/service.md), apply and discard (documented).
import { EDIT_ANSWER_PATH, EDITS_LIST_PATH, EDITS_QUERY } from './assumed.ts';
import { byIds } from './endpoint.ts';
import { longPoll, type LongPollOptions } from './long-poll.ts';
import { seg, type Http } from './http.ts';
import { requireIntInRange, requireUuid } from './input.ts';
import { BrandEdit, BrandEditPage, type Page } from './schemas.ts';
import type { CallOptions } from './brands.ts';

const FEATURE = 'listing Brand Edits';

export async function listEditsPage(
  http: Http,
  brandId: string,
  query: { cursor?: string; limit?: number } = {},
  options: CallOptions = {},
): Promise<Page<BrandEdit>> {
  const endpoint = 'GET /brands/{id}/edits';
  requireUuid(brandId, 'brand ID', endpoint);
  if (query.limit !== undefined) requireIntInRange(query.limit, 'limit', 1, 100, endpoint);
  return http.call({
    method: 'GET',
    endpoint,
    path: EDITS_LIST_PATH(seg(brandId)),
    query: { [EDITS_QUERY.cursor]: query.cursor, [EDITS_QUERY.limit]: query.limit },
    schema: BrandEditPage,
    resend: 'resend',
    assumedFeature: FEATURE,
    signal: options.signal,
  });
}

export interface GetEditOptions extends CallOptions, LongPollOptions {}

export const getEdit = byIds(
  'GET /brands/{id}/edits/{editId}',
  ['brand ID', 'edit ID'],
  BrandEdit,
  (brandId, editId) => `${EDITS_LIST_PATH(brandId)}/${editId}`,
  {
    more: (options: GetEditOptions, endpoint) => longPoll(options, endpoint),
    assumedFeature: 'Brand Edit details',
  },
);

/** A decision on an edit. Repeating apply on an applied edit (discard on a discarded one) returns it (docs/service.md): re-sent. */
const decide = (action: 'apply' | 'discard') =>
  byIds(
    `POST /brands/{id}/edits/{editId}/${action}`,
    ['brand ID', 'edit ID'],
    BrandEdit,
    (brandId, editId) => `/brands/${brandId}/edits/${editId}/${action}`,
  );

/** Makes the prepared candidate the active Brand. 409 BRAND_EDIT_STALE carries the active Skill ID. */
export const applyEdit = decide('apply');

/** Ends the edit; the active Brand is unchanged. 409 BRAND_EDIT_STATE_CONFLICT when it cannot be discarded. */
export const discardEdit = decide('discard');

export interface EditAnswer {
  /** The question answered (the edit's interaction.id). */
  interactionId: string;
  text?: string;
  imageIds?: string[];
  sources?: string[];
}

/**
 * Answers the question of an edit in input_required (assumed endpoint: hidden with a clear
 * message where the service has none). Sent once: a second answer could start a second
 * preparation.
 */
export function answerEdit(
  http: Http,
  brandId: string,
  editId: string,
  answer: EditAnswer,
  options: CallOptions = {},
): Promise<BrandEdit> {
  const endpoint = 'POST /brands/{id}/edits/{editId}/answer';
  requireUuid(brandId, 'brand ID', endpoint);
  requireUuid(editId, 'edit ID', endpoint);
  requireUuid(answer.interactionId, 'interaction ID', endpoint);
  return http.call({
    method: 'POST',
    endpoint,
    path: EDIT_ANSWER_PATH(seg(brandId), seg(editId)),
    json: answer,
    schema: BrandEdit,
    resend: 'once',
    assumedFeature: 'answering a Brand Edit question',
    signal: options.signal,
  });
}

/** preparing is in progress (docs/service.md, Edit states); everything else ends a wait. */
export function isEditSettled(edit: Pick<BrandEdit, 'status'>): boolean {
  return edit.status !== 'preparing';
}

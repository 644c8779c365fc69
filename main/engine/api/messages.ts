// What each known error code means for the user (the document's table and the codes
// docs/service.md adds from the REST reference). Any other code shows the service's own message.
import type { ApiError } from './errors.ts';

const HINTS: Record<string, string> = {
  UNAUTHORIZED: 'The API key was refused: sign in again with a valid key.',
  INVALID_UPLOAD_TOKEN: 'The upload link is invalid, expired or already used: ask for a new one.',
  ACCOUNT_BANNED: 'The account is suspended; nothing can be synced until it is reinstated.',
  FORBIDDEN: 'Your plan does not include this: upgrade the plan to use it.',
  BETA_ACCESS_REQUIRED: 'This needs beta access, which the account does not have.',
  FEATURE_NOT_ENTITLED: 'Your plan does not include this option (4K, for instance).',
  INSUFFICIENT_CREDITS: 'Not enough credits left in this workspace.',
  PAYMENT_REQUIRED: 'A payment is required before this can run.',
  INVALID_SOURCE: 'A brand source was rejected: check the website or file.',
  INVALID_LOGO: 'The logo could not be validated: use a PNG, JPEG, WebP, SVG or AVIF up to 10 MB.',
  UNSUPPORTED_FORMAT: 'Unsupported image format: use PNG, JPEG, WebP or AVIF.',
  FILE_TOO_LARGE: 'The file is larger than the service accepts (10 MB).',
  INVALID_URL: 'The URL was rejected.',
  DOWNLOAD_FAILED: 'The service could not download that URL.',
  BRAND_NOT_FOUND: 'No such brand (it may have been deleted).',
  MEDIA_NOT_FOUND: 'No such video or media file.',
  IMAGE_NOT_FOUND: 'No such image.',
  WORKSPACE_NOT_FOUND: 'No such workspace, or it is not accessible to you.',
  IDEMPOTENCY_CONFLICT: 'This idempotency key was already used for a different request.',
  DUPLICATE_BRAND:
    'A brand with this website already exists: use it, or create another on purpose (allowDuplicate).',
  BRAND_SKILL_UNAVAILABLE: 'The brand has no exportable Skill yet.',
  BRAND_NOT_READY: 'The brand is not ready yet.',
  BRAND_EDIT_STATE_CONFLICT: 'The edit cannot be discarded in its current state.',
  BRAND_EDIT_STALE: 'The brand changed while the edit waited for approval; the edit is stale.',
  TOO_MANY_REQUESTS: 'The service is rate-limiting this key; requests resume after the pause.',
  INTERNAL_ERROR: 'The service failed; try again later.',
  INTERNAL_SERVER_ERROR: 'The service failed; try again later.',
  INVALID_CURSOR: 'The list position is no longer valid: start the listing again.',
  REFERENCE_LIMIT_EXCEEDED: 'Too many reference images (at most 9).',
  EDIT_SUBJECT_NOT_COMPLETED: 'The image to edit is not completed yet.',
  EDIT_SUBJECT_NOT_FOUND: 'The image to edit was not found.',
  REFERENCE_IMAGE_NOT_FOUND: 'A reference image was not found.',
  NETWORK_ERROR: 'The service could not be reached.',
  TIMEOUT: 'The service did not answer in time.',
  INVALID_RESPONSE: 'The service answered in an unexpected form.',
  FEATURE_UNAVAILABLE: 'This service does not offer that feature.',
};

/** A short explanation of a code for people, or undefined for codes we do not know. */
export function hintFor(code: string): string | undefined {
  return Object.hasOwn(HINTS, code) ? HINTS[code] : undefined;
}

/**
 * What a person reads for a failure without an answer from the service: the plain words of
 * its code (a request's own text names endpoints and socket codes), else the message as it is.
 */
export function plainTransportMessage(code: string, message: string): string {
  return code === 'NETWORK_ERROR' || code === 'TIMEOUT' ? (hintFor(code) ?? message) : message;
}

/** One line: the code, the service's message, what the code means when we know it, and the
 * action link the service gave (402 PAYMENT_REQUIRED carries `data.action_url`). */
export function describeApiError(error: ApiError): string {
  const message = error.message.trim();
  const hint = hintFor(error.code);
  const line =
    hint && hint !== message ? `${error.code}: ${message} (${hint})` : `${error.code}: ${message}`;
  const link = actionLink(error.data);
  return link && !line.includes(link) ? `${line} See ${link}` : line;
}

/** The link a refusal offers to resolve it (pay, upgrade), when it carries one. */
export function actionLink(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const record = data as Record<string, unknown>;
  const url = record.action_url ?? record.actionUrl;
  return typeof url === 'string' && /^https?:\/\//i.test(url) ? url : undefined;
}

/** What the UI and the CLI say while the rate gate holds requests. */
export function pauseNote(pausedUntil: number): string {
  return `Paused by the service until ${new Date(pausedUntil).toLocaleTimeString('en-GB')}.`;
}

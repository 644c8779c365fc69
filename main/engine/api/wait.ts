// Waiting for asynchronous work to settle: brands, images, exports, beta Brand Skills and
// Brand Edits. Where the service can hold the connection (`wait=true`) a timed-out wait
// simply asks again; elsewhere it polls at an interval. Every wait is cancellable. The first
// look never waits: a status the service holds on (one we do not know) ends the wait at once.
import { DEFAULT_POLL_INTERVAL_MS } from './assumed.ts';
import { abortedError } from './clock.ts';
import { getBrand, isBrandSettled } from './brands.ts';
import { getBrandSkill, isBrandSkillSettled } from './brand-skills.ts';
import { getEdit, isEditSettled } from './edits.ts';
import { getExport, isExportSettled, requestExport } from './exports.ts';
import type { Http } from './http.ts';
import { getImage, isImageSettled } from './images.ts';
import type { Brand, BrandEdit, BrandExport, BrandSkill, Image } from './schemas.ts';

export interface WaitOptions<T> {
  signal?: AbortSignal;
  /** Seconds one `wait=true` request may hold the connection (1-295). */
  waitSeconds?: number;
  /** Least time between two polls when the service answers at once. */
  pollIntervalMs?: number;
  /** Called with every non-final state seen. */
  onUpdate?: (value: T) => void;
}

/**
 * The second look of a poll comes this soon (at most): work that was nearly done at the first
 * look (an export the service reused, just being finished) ends without a whole interval's
 * wait, for one more request.
 */
export const SECOND_LOOK_MS = 400;
/** A poll's interval grows by this much after each look that found the work still running… */
const POLL_BACKOFF = 1.5;
/** …up to this. */
export const MAX_POLL_INTERVAL_MS = 60_000;

async function pollUntil<T>(
  http: Http,
  endpoint: string,
  fetch: (signal: AbortSignal | undefined, first: boolean) => Promise<T>,
  settled: (value: T) => boolean,
  options: WaitOptions<T>,
  holds: boolean,
): Promise<T> {
  const signal = http.signalFor(options.signal);
  let interval = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  for (let first = true; ; first = false) {
    const started = http.clock.now();
    const value = await fetch(signal, first);
    if (settled(value)) return value;
    options.onUpdate?.(value);
    // A service without `wait` answers at once: do not hammer it. (After the first look of a
    // holding wait, the next request holds by itself.) Polls space out while the work lasts:
    // a quick second look, then seconds, about a minute at most.
    const wait = first ? (holds ? 0 : Math.min(interval, SECOND_LOOK_MS)) : interval;
    const rest = wait - (http.clock.now() - started);
    if (!holds && !first) interval = Math.min(MAX_POLL_INTERVAL_MS, interval * POLL_BACKOFF);
    if (rest > 0) {
      await http.clock.sleep(rest, signal).catch(() => {
        throw abortedError(endpoint);
      });
    }
  }
}

/** Until the brand leaves `analyzing` (ready, failed, or a status the document does not name). */
export function waitForBrand(
  http: Http,
  id: string,
  options: WaitOptions<Brand> = {},
): Promise<Brand> {
  return pollUntil(
    http,
    'GET /brands/{id}',
    (signal, first) =>
      getBrand(http, id, { wait: !first, waitSeconds: options.waitSeconds, signal }),
    isBrandSettled,
    options,
    true,
  );
}

/** Until the image is completed or failed. */
export function waitForImage(
  http: Http,
  id: string,
  options: WaitOptions<Image> = {},
): Promise<Image> {
  return pollUntil(
    http,
    'GET /images/{id}',
    (signal, first) =>
      getImage(http, id, { wait: !first, waitSeconds: options.waitSeconds, signal }),
    isImageSettled,
    options,
    true,
  );
}

/** Until the export is ready or failed (polled: the document gives this GET no wait). */
export function waitForExport(
  http: Http,
  brandId: string,
  skillId: string,
  options: WaitOptions<BrandExport> = {},
): Promise<BrandExport> {
  return pollUntil(
    http,
    'GET /brands/{id}/exports/{skillId}',
    (signal) => getExport(http, brandId, skillId, { signal }),
    isExportSettled,
    options,
    false,
  );
}

/** Until the beta job is completed or failed (polled). */
export function waitForBrandSkill(
  http: Http,
  id: string,
  options: WaitOptions<BrandSkill> = {},
): Promise<BrandSkill> {
  return pollUntil(
    http,
    'GET /brand-skills/{id}',
    (signal) => getBrandSkill(http, id, { signal }),
    isBrandSkillSettled,
    options,
    false,
  );
}

/** Until the edit leaves `preparing`. */
export function waitForEdit(
  http: Http,
  brandId: string,
  editId: string,
  options: WaitOptions<BrandEdit> = {},
): Promise<BrandEdit> {
  return pollUntil(
    http,
    'GET /brands/{id}/edits/{editId}',
    (signal, first) =>
      getEdit(http, brandId, editId, { wait: !first, waitSeconds: options.waitSeconds, signal }),
    isEditSettled,
    options,
    true,
  );
}

export interface ExportOptions extends WaitOptions<BrandExport> {
  /** Export requests at most (the first included) while failures say `retryable`. */
  maxRequests?: number;
}

/**
 * Requests an export and waits for it to settle. A failure with `failure.retryable` is
 * requested again (after a backoff); any other failure is returned as it is.
 */
export async function exportAndWait(
  http: Http,
  brandId: string,
  options: ExportOptions = {},
): Promise<BrandExport> {
  const maxRequests = options.maxRequests ?? 3;
  const signal = http.signalFor(options.signal);
  for (let request = 1; ; request++) {
    const started = await requestExport(http, brandId, { signal });
    const settled = isExportSettled(started)
      ? started
      : await waitForExport(http, brandId, started.skillId, { ...options, signal });
    const retryable = settled.status === 'failed' && settled.failure?.retryable === true;
    if (!retryable || request >= maxRequests) return settled;
    await http.clock.sleep(http.backoff(request), signal).catch(() => {
      throw abortedError('POST /brands/{id}/exports');
    });
  }
}

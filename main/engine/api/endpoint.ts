// Most calls of the client are one endpoint on resources named by their IDs: each ID is
// checked as a UUID before anything is sent and encoded into the path, and the call goes
// with the caller's signal. Such a call is declared here with only what is its own (path,
// schema, resend rule); calls that check or shape more write out their http.call.
import type { z } from 'zod';
import type { CallSpec, Http, HttpMethod, Output, ResendRule } from './http.ts';
import { seg } from './http.ts';
import { requireLength, requireUuid } from './input.ts';

interface Signalled {
  signal?: AbortSignal;
}

/** "METHOD /path/{template}", as in errors; the method is the call's. */
export type Endpoint = `${HttpMethod} /${string}`;

/** What a call has beyond its endpoint, IDs, schema and path. */
export interface IdCallExtras<S extends z.ZodType | null, O extends Signalled> {
  /** What may be re-sent after an uncertain send (default: `resend`). */
  resend?: ResendRule;
  assumedFeature?: string;
  /** More of the call from the caller's options (a long poll's query and time limit). */
  more?: (options: O, endpoint: string) => Partial<CallSpec<S>>;
  resolveAfterUncertain?: CallSpec<S>['resolveAfterUncertain'];
}

/** The method an endpoint names ("GET /brands/{id}" → GET). */
export function methodOf(endpoint: Endpoint): HttpMethod {
  return endpoint.slice(0, endpoint.indexOf(' ')) as HttpMethod;
}

function callWithIds<S extends z.ZodType | null, O extends Signalled>(
  http: Http,
  endpoint: Endpoint,
  labels: readonly string[],
  schema: S,
  path: string,
  extras: IdCallExtras<S, O>,
  ids: readonly string[],
  options: O,
): Promise<Output<S>> {
  labels.forEach((label, i) => requireUuid(ids[i] as string, label, endpoint));
  return http.call({
    method: methodOf(endpoint),
    endpoint,
    path,
    ...extras.more?.(options, endpoint),
    schema,
    resend: extras.resend ?? 'resend',
    ...(extras.assumedFeature === undefined ? {} : { assumedFeature: extras.assumedFeature }),
    ...(extras.resolveAfterUncertain === undefined
      ? {}
      : { resolveAfterUncertain: extras.resolveAfterUncertain }),
    signal: options.signal,
  });
}

/**
 * A call on one resource named by its ID (`label` in errors): `(http, id, options?)`.
 * `path` gets the ID encoded.
 */
export function byId<S extends z.ZodType | null, O extends Signalled = Signalled>(
  endpoint: Endpoint,
  label: string,
  schema: S,
  path: (id: string) => string,
  extras: IdCallExtras<S, O> = {},
): (http: Http, id: string, options?: O) => Promise<Output<S>> {
  return (http, id, options = {} as O) =>
    callWithIds(http, endpoint, [label], schema, path(seg(id)), extras, [id], options);
}

/** A call on a resource named by two IDs (a brand's export or edit): `(http, a, b, options?)`. */
export function byIds<S extends z.ZodType | null, O extends Signalled = Signalled>(
  endpoint: Endpoint,
  labels: readonly [string, string],
  schema: S,
  path: (first: string, second: string) => string,
  extras: IdCallExtras<S, O> = {},
): (http: Http, first: string, second: string, options?: O) => Promise<Output<S>> {
  return (http, first, second, options = {} as O) =>
    callWithIds(
      http,
      endpoint,
      labels,
      schema,
      path(seg(first), seg(second)),
      extras,
      [first, second],
      options,
    );
}

/**
 * Sends a prepared creation (POST /brands, POST /brand-skills) under its Idempotency-Key:
 * an uncertain outcome is re-sent with the same key and the same body, as the document
 * requires.
 */
export function sendIdempotent<S extends z.ZodType>(
  http: Http,
  endpoint: Endpoint,
  path: string,
  prepared: { idempotencyKey: string; body: unknown },
  schema: S,
  options: Signalled,
): Promise<Output<S>> {
  requireLength(prepared.idempotencyKey, 'Idempotency-Key', 1, 255, endpoint);
  return http.call({
    method: methodOf(endpoint),
    endpoint,
    path,
    headers: { 'idempotency-key': prepared.idempotencyKey },
    json: prepared.body,
    schema,
    resend: 'resend',
    signal: options.signal,
  });
}

/**
 * A whole creation: `onKey` hears the key and body before the first send (so the caller can
 * persist them and a rerun sends the same), then the answer comes back with its key.
 */
export async function createWithKey<B, T extends object>(
  prepared: { idempotencyKey: string; body: B },
  onKey: ((key: string, body: B) => void | Promise<void>) | undefined,
  send: () => Promise<T>,
): Promise<T & { idempotencyKey: string }> {
  await onKey?.(prepared.idempotencyKey, prepared.body);
  const created = await send();
  return { ...created, idempotencyKey: prepared.idempotencyKey };
}

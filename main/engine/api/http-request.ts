// Building a request: the URL below the base URL with its query, the headers (ours, the
// call's, the credential's, the body's), and the body of one send.
import type { CallSpec, FreshBody } from './http-types.ts';

/** How every request names the client, downloads included. */
export const USER_AGENT = 'brand-sync';
const BASE_HEADERS = { 'user-agent': USER_AGENT, accept: 'application/json' } as const;

/** The URL, headers and body of one send of `spec` (`fresh`: this send's own body). */
export function requestOf(
  baseUrl: string,
  spec: Pick<CallSpec<null>, 'path' | 'query' | 'headers' | 'auth' | 'json'>,
  fresh: FreshBody | undefined,
  authHeaders: () => Record<string, string>,
): { url: URL; headers: Record<string, string>; body: FreshBody['body'] | undefined } {
  const url = buildUrl(baseUrl, spec.path, spec.query);
  const headers: Record<string, string> = { ...BASE_HEADERS, ...spec.headers };
  if (spec.auth !== false) Object.assign(headers, authHeaders());
  let body: FreshBody['body'] | undefined = fresh?.body;
  if (fresh?.headers) Object.assign(headers, fresh.headers);
  if (spec.json !== undefined) {
    body = JSON.stringify(spec.json);
    headers['content-type'] = 'application/json';
  }
  if (typeof body === 'string' || body instanceof Uint8Array) {
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return { url, headers, body };
}

export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`base URL is not a valid URL: ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`base URL must be http or https, got ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new TypeError('base URL must not contain credentials');
  }
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

function buildUrl(baseUrl: string, path: string, query: CallSpec<null>['query']): URL {
  const url = /^https?:\/\//.test(path) ? new URL(path) : new URL(baseUrl + path);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
  }
  return url;
}

/** Encodes one path segment (IDs come from users and disk: never trust them in a URL). */
export function seg(value: string): string {
  return encodeURIComponent(value);
}

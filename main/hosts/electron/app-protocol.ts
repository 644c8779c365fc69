// The desktop window's origin: `app://brand-sync/`, a privileged custom scheme served by
// `protocol.handle`, never `file://`. The handler is a plain `Request -> Response` function
// (tested in Node): the built renderer, and under `/files/` the same files the headless host
// serves (the media cache, the Brand Skill, the brand folder), nothing outside them, every
// answer with the same strict CSP as the headless host. Files are streamed, never read whole.
import { open, readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  CONTENT_SECURITY_POLICY,
  FILES_CONTENT_SECURITY_POLICY,
  servedType,
} from '../headless/security.ts';
import type { ServedFile } from '../../engine/app/file-access.ts';
import { resolveInside } from '../../engine/views/safe-path.ts';
import { mimeTypeOf } from '../../engine/views/skill-view.ts';

export const APP_SCHEME = 'app';
export const APP_HOST = 'brand-sync';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * The scheme's privileges, registered before the app is ready: a standard, secure origin with
 * fetch, and `stream` so that the Library's audio and video play from the media cache (a
 * custom scheme's media does not load without it). Never `bypassCSP` (the CSP of every answer
 * must hold), `corsEnabled` or service workers.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  stream: true,
} as const;

/**
 * Whether `url` is on the app's origin. Parsed, not compared by `origin`: Node gives a custom
 * scheme's origin as 'null', and a prefix test alone would not say what a URL's host is.
 */
export function isAppUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    parsed.protocol === `${APP_SCHEME}:` &&
    parsed.host === APP_HOST &&
    parsed.username === '' &&
    parsed.password === ''
  );
}

/** Whether `url` is the app's page itself (`/` or `/index.html`; it routes by the hash). */
export function isAppPageUrl(url: string): boolean {
  if (!isAppUrl(url)) return false;
  const { pathname } = new URL(url);
  return pathname === '/' || pathname === '/index.html';
}

export interface AppProtocolOptions {
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  /** The engine's files for `/files/<area>/…` (null: none, a 404). */
  fileFor(rest: readonly string[]): Promise<ServedFile | null>;
}

const securityHeaders = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

function answer(
  status: number,
  body: Buffer | string | ReadableStream<Uint8Array> | null,
  type: string,
  csp = CONTENT_SECURITY_POLICY,
): Response {
  return new Response(body, {
    status,
    headers: { ...securityHeaders, 'content-security-policy': csp, 'content-type': type },
  });
}

const notFound = () => answer(404, 'Not found', 'text/plain; charset=utf-8');

export function createAppProtocolHandler(options: AppProtocolOptions) {
  return async (request: Request): Promise<Response> => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return notFound();
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return notFound();
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return answer(405, 'Method not allowed', 'text/plain; charset=utf-8');
    }
    // Decoded once, then checked: `%2e%2e` is `..` here and refused with it.
    let parts: string[];
    try {
      parts = url.pathname.split('/').slice(1).map(decodeURIComponent);
    } catch {
      return notFound();
    }
    if (
      parts.some(
        (p) => p === '..' || p === '.' || p.includes('\0') || p.includes('/') || p.includes('\\'),
      )
    ) {
      return notFound();
    }
    if (parts[0] === 'files') {
      const file = await options.fileFor(parts.slice(1));
      if (file === null) return notFound();
      const type = servedType(file.mimeType);
      if (request.method === 'HEAD') return answer(200, null, type, FILES_CONTENT_SECURITY_POLICY);
      // Opened here, so a file gone since fileFor is a 404 rather than a broken stream.
      const handle = await open(file.path, 'r').catch(() => null);
      if (handle === null) return notFound();
      // Streamed: a video of a gigabyte is never held in memory, its first bytes go out at once.
      const body = Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>;
      return answer(200, body, type, FILES_CONTENT_SECURITY_POLICY);
    }
    // The window routes inside one page (the hash): `/` is the page.
    const rel = parts.join('/') === '' ? 'index.html' : parts.join('/');
    const file = await resolveInside(options.rendererDir, rel);
    if (file === null) return notFound();
    return answer(200, request.method === 'HEAD' ? null : await readFile(file), mimeTypeOf(file));
  };
}

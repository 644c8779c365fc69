// The headless host's guards, each a small pure function so that it is tested on its own as
// well as over HTTP: loopback Host and Origin only (a DNS-rebinding page cannot talk to us),
// a per-start token exchanged for an HttpOnly cookie, and the page's CSP.
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'brand_sync_session';

/** script-src 'self': no inline script anywhere; styles may be set inline by components. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/**
 * Files of the engine (Brand Skill, brand folder, media) are data, never a page or a script
 * of the app's origin: opened on their own they run nothing (sandbox, no script source).
 */
export const FILES_CONTENT_SECURITY_POLICY =
  "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/** What a file of the engine is served as: markup and scripts as plain text. */
export function servedType(mimeType: string): string {
  return /^(text\/html|text\/javascript|application\/(x-)?javascript|application\/xhtml)/i.test(
    mimeType,
  )
    ? 'text/plain; charset=utf-8'
    : mimeType;
}

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The Host header names this server on loopback, with its port. */
export function hostAllowed(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** No Origin (a top-level navigation, a script), or the app's own. */
export function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
}

export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `Authorization: Bearer <token>` (scripts), else undefined. */
export function bearerOf(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}

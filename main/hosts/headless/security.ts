// The headless host's guards, each small enough to be tested on its own as well as over
// HTTP: loopback Host and Origin only (a DNS-rebinding page cannot talk to us), a per-start
// token exchanged for a session of its own in an HttpOnly cookie named per instance, bounded
// bodies, and the page's CSP.
import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The session cookie's name, one per instance: a browser keeps cookies per host, not per port,
 * so a second `serve` or a demo beside it must not replace (and so sign out) the first's.
 */
export function sessionCookieName(port: number): string {
  return `brand_sync_session_${port}`;
}

/** At most this many sessions at once: the oldest gives way (a browser signs in again). */
const MAX_SESSIONS = 64;
/** A one-time code for `--open` lives this long and works once. */
export const ONE_TIME_CODE_MS = 60_000;

/**
 * Sessions and one-time codes. Every exchange of the token (or of a code) makes a session of
 * its own, so no cookie value is a second permanent password; a code opens the browser without
 * putting the long-lived token on another program's command line.
 */
export class Sessions {
  readonly #sessions = new Set<string>();
  readonly #codes = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** A new session's secret. */
  open(): string {
    const secret = newSecret();
    this.#sessions.add(secret);
    if (this.#sessions.size > MAX_SESSIONS) {
      const oldest = this.#sessions.values().next().value as string;
      this.#sessions.delete(oldest);
    }
    return secret;
  }

  valid(secret: string | undefined): boolean {
    if (secret === undefined) return false;
    for (const known of this.#sessions) if (sameSecret(secret, known)) return true;
    return false;
  }

  /** A code that opens one session within a minute. */
  newCode(): string {
    const now = this.#now();
    for (const [code, expires] of this.#codes) if (expires <= now) this.#codes.delete(code);
    const code = newSecret();
    this.#codes.set(code, now + ONE_TIME_CODE_MS);
    return code;
  }

  /** True once for a code given by newCode() within its minute; the code is spent either way. */
  redeem(given: string): boolean {
    for (const [code, expires] of this.#codes) {
      if (!sameSecret(given, code)) continue;
      this.#codes.delete(code);
      return expires > this.#now();
    }
    return false;
  }
}

/** Bodies of queries and commands: their inputs are IDs, names, settings and prompts. */
export const SMALL_BODY_LIMIT = 256 * 1024;
/** The one channel that carries files dropped onto the window: at most 5 of 10 MB, base64. */
export const FILE_BODY_LIMIT = 72 * 1024 * 1024;
const LARGE_BODY_CHANNELS: ReadonlySet<string> = new Set(['addFiles']);

export function bodyLimitOf(channel: string): number {
  return LARGE_BODY_CHANNELS.has(channel) ? FILE_BODY_LIMIT : SMALL_BODY_LIMIT;
}

/** No input of the contract nests deeper than a few levels; this leaves room and stops bombs. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether JSON text nests deeper than `max` arrays and objects, found in one pass before it is
 * parsed (a 5-million-deep document otherwise holds the event loop for seconds).
 */
export function jsonTooDeep(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

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

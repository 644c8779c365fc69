// Validation of the sources of POST /brands and POST /brand-skills (docs/service.md "Shapes of
// non-website sources"): {kind: website|instagram, url}, {kind: pdf|file, url | uploadId};
// 1-30 elements, at most one website and one Instagram account, files ≤ 100 MiB each and
// 256 MiB combined. Structural errors are 400 INVALID_SOURCE. On /brands, a URL that does not
// parse and an unknown kind are accepted and the brand fails later (INVALID_URL,
// UNSUPPORTED_SOURCE), as the creation failure codes describe; the beta flow rejects them at once.
import { SimError } from '../errors.ts';
import type { Source } from '../model.ts';
import type { SimState } from '../state.ts';

export const MAX_SOURCE_FILE = 100 * 1024 * 1024;
export const MAX_SOURCES_COMBINED = 256 * 1024 * 1024;
const KNOWN_KINDS = new Set(['website', 'instagram', 'pdf', 'file']);

export function invalidSource(message: string, index?: number): SimError {
  return new SimError(400, 'INVALID_SOURCE', message, index === undefined ? undefined : { index });
}

export function parseSources(
  state: SimState,
  raw: unknown,
  flow: 'brands' | 'beta',
  workspaceId: string | null,
): { sources: Source[]; failCode: string | null } {
  if (!Array.isArray(raw)) throw invalidSource('sources must be an array of 1-30 sources');
  if (raw.length < 1 || raw.length > 30) {
    throw invalidSource(`sources must have 1-30 elements, got ${raw.length}`);
  }
  let failCode: string | null = null;
  let websites = 0;
  let instagrams = 0;
  let combined = 0;
  const sources: Source[] = raw.map((el: unknown, i): Source => {
    if (el === null || typeof el !== 'object' || Array.isArray(el))
      throw invalidSource(`sources[${i}] must be an object`, i);
    const s = el as Record<string, unknown>;
    if (typeof s.kind !== 'string' || s.kind === '')
      throw invalidSource(`sources[${i}].kind must be a string`, i);
    const kind = s.kind;
    if (!KNOWN_KINDS.has(kind)) {
      if (flow === 'beta') throw invalidSource(`sources[${i}]: kind "${kind}" is not supported`, i);
      failCode ??= 'UNSUPPORTED_SOURCE';
      return { kind, ...(typeof s.url === 'string' ? { url: s.url } : {}) };
    }
    if (kind === 'pdf' && flow === 'beta')
      throw invalidSource(`sources[${i}]: PDF files are not supported by /brand-skills`, i);
    if (kind === 'website') websites++;
    if (kind === 'instagram') instagrams++;
    if (websites > 1) throw invalidSource('at most one website source is allowed', i);
    if (instagrams > 1) throw invalidSource('at most one Instagram source is allowed', i);
    const hasUrl = s.url !== undefined;
    const hasUpload = s.uploadId !== undefined;
    if (kind === 'website' || kind === 'instagram') {
      if (typeof s.url !== 'string' || s.url === '')
        throw invalidSource(`sources[${i}].url is required for ${kind}`, i);
      if (!validHttpUrl(s.url, kind === 'instagram')) {
        if (flow === 'beta') throw invalidSource(`sources[${i}].url is not a valid URL`, i);
        failCode ??= 'INVALID_URL';
      }
      return { kind, url: s.url };
    }
    if (hasUrl === hasUpload)
      throw invalidSource(`sources[${i}] needs exactly one of url and uploadId`, i);
    if (hasUrl) {
      if (typeof s.url !== 'string' || !validHttpUrl(s.url, true)) {
        if (flow === 'beta' || typeof s.url !== 'string')
          throw invalidSource(`sources[${i}].url must be a public HTTPS URL`, i);
        failCode ??= 'INVALID_URL';
      }
      return { kind, url: s.url as string };
    }
    const staged = typeof s.uploadId === 'string' ? state.staged.get(s.uploadId) : undefined;
    if (!staged || !staged.received)
      throw invalidSource(`sources[${i}].uploadId is not a completed upload`, i);
    if (staged.expiresAt <= state.now())
      throw invalidSource(`sources[${i}].uploadId has expired`, i);
    if (staged.workspaceId !== workspaceId)
      throw invalidSource(`sources[${i}].uploadId belongs to another workspace`, i);
    if (flow === 'beta' && staged.received.head.toString('latin1', 0, 5) === '%PDF-') {
      throw invalidSource(`sources[${i}]: PDF files are not supported by /brand-skills`, i);
    }
    combined += staged.size;
    if (combined > MAX_SOURCES_COMBINED)
      throw invalidSource('source files exceed 256 MiB combined', i);
    return { kind, uploadId: staged.id };
  });
  return { sources, failCode };
}

function validHttpUrl(text: string, httpsOnly: boolean): boolean {
  try {
    const u = new URL(text);
    return (
      (u.protocol === 'https:' || (!httpsOnly && u.protocol === 'http:')) &&
      u.hostname.includes('.')
    );
  } catch {
    return false;
  }
}

/** The host a website source names, for duplicate detection. */
export function siteKey(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.replace(/^www\./, '').toLowerCase();
  } catch {
    return null;
  }
}

// The profile inside an unpacked Brand Skill (assumed in docs/service.md, What an export ZIP holds: a `profile.json` with the
// name, colours, typography and a logo reference), read leniently: a field in another shape
// is left out, never an error. Cached per installed version, which never changes in place.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface SkillProfile {
  name: string | null;
  colors: { hex: string; name: string | null }[];
  fonts: { family: string; role: string | null }[];
  /** The logo's path inside `Brand Skill/`, with `/` separators. */
  logoPath: string | null;
}

const cache = new Map<string, SkillProfile | null>();
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** The profile of the Skill unpacked in `liveDir`; null when it has none that can be read. */
export function readSkillProfile(liveDir: string, skillId: string | null): SkillProfile | null {
  const key = `${liveDir}\0${skillId ?? ''}`;
  if (cache.has(key)) return cache.get(key) ?? null;
  let profile: SkillProfile | null;
  try {
    profile = parseProfile(JSON.parse(readFileSync(path.join(liveDir, 'profile.json'), 'utf8')));
  } catch {
    profile = null;
  }
  if (cache.size > 500) cache.clear();
  cache.set(key, profile);
  return profile;
}

export function parseProfile(doc: unknown): SkillProfile {
  const o = (doc ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);
  const colors: SkillProfile['colors'] = [];
  for (const c of Array.isArray(o.colors) ? o.colors : []) {
    const hex = typeof c === 'string' ? c : text((c as { hex?: unknown })?.hex);
    if (hex !== null && HEX.test(hex)) {
      colors.push({
        hex,
        name: typeof c === 'string' ? null : text((c as { name?: unknown }).name),
      });
    }
  }
  const fonts: SkillProfile['fonts'] = [];
  const typography = o.typography;
  if (typography && typeof typography === 'object' && !Array.isArray(typography)) {
    for (const [role, value] of Object.entries(typography as Record<string, unknown>)) {
      const family = text((value as { family?: unknown })?.family);
      if (family !== null) fonts.push({ family, role });
    }
  }
  for (const f of Array.isArray(o.fonts) ? o.fonts : []) {
    const family = typeof f === 'string' ? f : text((f as { family?: unknown })?.family);
    if (family !== null) fonts.push({ family, role: null });
  }
  const logo = o.primaryLogo ?? o.logo;
  const logoPath =
    typeof logo === 'string' ? logo : text((logo as { path?: unknown } | undefined)?.path);
  return {
    name: text(o.name),
    colors,
    fonts,
    logoPath: logoPath !== null && safeRelative(logoPath) ? logoPath : null,
  };
}

/** A relative path that stays inside its folder (the file route checks again). */
function safeRelative(p: string): boolean {
  return !p.startsWith('/') && !p.includes('\\') && !p.split('/').includes('..');
}

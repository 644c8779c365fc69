// Derives a plausible brand profile from a brand name, deterministically: the same name always
// gives the same colours, fonts and logo.
import type { Logo, Profile, Source } from '../model.ts';
import { logoArt, type ArtPalette } from '../demo-art.ts';
import { hexToRgb } from '../png.ts';
import { hashString } from '../prng.ts';

const PALETTES: Array<Array<{ hex: string; name: string }>> = [
  [
    { hex: '#1F3A5F', name: 'Harbour Navy' },
    { hex: '#F2A541', name: 'Amber' },
    { hex: '#F7F4EE', name: 'Paper' },
  ],
  [
    { hex: '#2D6A4F', name: 'Forest' },
    { hex: '#95D5B2', name: 'Mint' },
    { hex: '#081C15', name: 'Ink' },
  ],
  [
    { hex: '#6B2737', name: 'Claret' },
    { hex: '#E8C547', name: 'Saffron' },
    { hex: '#FFFFFF', name: 'White' },
  ],
  [
    { hex: '#0B132B', name: 'Midnight' },
    { hex: '#5BC0BE', name: 'Lagoon' },
    { hex: '#E0E1DD', name: 'Fog' },
  ],
  [
    { hex: '#4A2C2A', name: 'Espresso' },
    { hex: '#D9A566', name: 'Crema' },
    { hex: '#F3EADB', name: 'Oat' },
  ],
  [
    { hex: '#24453A', name: 'Pine' },
    { hex: '#D2764A', name: 'Copper' },
    { hex: '#F4EFE6', name: 'Linen' },
  ],
  [
    { hex: '#0E5E8A', name: 'Ocean' },
    { hex: '#FF7F6B', name: 'Coral' },
    { hex: '#FFF6EE', name: 'Shell' },
  ],
];
const FONTS = [
  { heading: 'Playfair Display', body: 'Inter' },
  { heading: 'Montserrat', body: 'Source Sans 3' },
  { heading: 'DM Serif Display', body: 'DM Sans' },
  { heading: 'Space Grotesk', body: 'IBM Plex Sans' },
];
const VOICES = [
  ['Warm and plain-spoken', 'Short sentences', 'Never uses jargon'],
  ['Confident and precise', 'Leads with the benefit', 'Numbers over adjectives'],
  ['Playful but never silly', 'Speaks to one reader', 'Ends with an invitation'],
];

export function deriveProfile(name: string, instructions: string | null): Profile {
  const h = hashString(name.toLowerCase());
  const palette = PALETTES[h % PALETTES.length] as Array<{ hex: string; name: string }>;
  const fonts = FONTS[(h >>> 4) % FONTS.length] as { heading: string; body: string };
  return {
    name,
    summary:
      `${name} is presented with a clear, consistent identity.` +
      (instructions ? ` Guidance for this build: ${instructions.slice(0, 200)}` : ''),
    colors: palette.map((c) => ({ ...c })),
    typography: {
      heading: { source: 'google', family: fonts.heading },
      body: { source: 'google', family: fonts.body },
    },
    voice: [...(VOICES[(h >>> 8) % VOICES.length] as string[])],
  };
}

/** A profile's colours as the drawn pictures use them: primary, accent, light ground. */
export function artPalette(profile: Pick<Profile, 'colors'>): ArtPalette {
  const at = (i: number, fallback: string) => hexToRgb(profile.colors[i]?.hex ?? fallback);
  return { primary: at(0, '#1F3A5F'), accent: at(1, '#F2A541'), light: at(2, '#F7F4EE') };
}

/** A drawn logo: a badge and a mark whose shapes and colours follow the brand's name. */
export function generatedLogo(profile: Profile): Logo {
  return {
    bytes: logoArt(profile.name, artPalette(profile)),
    mimeType: 'image/png',
    ext: 'png',
    imageId: null,
  };
}

/** The brand name the service derives from the first source it can read a name from. */
export function nameFromSources(sources: Source[]): string {
  for (const s of sources) {
    if (!s.url) continue;
    try {
      const u = new URL(s.url);
      if (s.kind === 'instagram') {
        const handle = u.pathname.split('/').find((p) => p.length > 0);
        if (handle) return titleCase(handle);
      }
      if (s.kind === 'pdf' || s.kind === 'file') {
        const file = decodeURIComponent(u.pathname.split('/').pop() ?? '').replace(
          /\.[a-z0-9]+$/i,
          '',
        );
        if (file) return titleCase(file);
      }
      const host = u.hostname.replace(/^www\./, '').split('.')[0];
      if (host) return titleCase(host);
    } catch {
      // not a URL: try the next source
    }
  }
  return 'Untitled brand';
}

function titleCase(s: string): string {
  return s
    .replace(/[-_.]+/g, ' ')
    .trim()
    .split(/\s+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

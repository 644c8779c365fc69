// What a colour swatch copies: its hex, its rgb() or the CSS variable of the Skill's
// palette.css (`--color-<name as a slug>`, as the Skill writes it).
export type CopyFormat = 'hex' | 'rgb' | 'css';

export const COPY_FORMATS: ReadonlyArray<{ value: CopyFormat; label: string }> = [
  { value: 'hex', label: 'HEX' },
  { value: 'rgb', label: 'RGB' },
  { value: 'css', label: 'CSS variable' },
];

export function colourText(hex: string, name: string | null, format: CopyFormat): string {
  if (format === 'rgb') {
    const rgb = rgbOf(hex);
    return rgb ? `rgb(${rgb.join(', ')})` : hex;
  }
  if (format === 'css') return `var(--color-${slug(name ?? hex.replace(/^#/, ''))})`;
  return hex.toUpperCase();
}

function rgbOf(hex: string): [number, number, number] | null {
  let h = hex.replace(/^#/, '');
  if (h.length === 3 || h.length === 4) h = [...h.slice(0, 3)].map((c) => c + c).join('');
  if (!/^[0-9a-f]{6}([0-9a-f]{2})?$/i.test(h)) return null;
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'colour'
  );
}

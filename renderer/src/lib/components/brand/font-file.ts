// The font file a Brand Skill carries for a family: a .woff2, .woff, .otf or .ttf whose name
// begins with the family's name (`assets/fonts/playfair-display-regular.woff2`), the regular
// weight first.
const FONT = /\.(woff2|woff|otf|ttf)$/i;

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');

export function fontFileOf(family: string, paths: readonly string[]): string | null {
  const wanted = squash(family);
  if (wanted === '') return null;
  const matches = paths.filter((p) => {
    const name = p.split('/').at(-1) ?? '';
    return FONT.test(name) && squash(name.replace(FONT, '')).startsWith(wanted);
  });
  return matches.find((p) => /regular/i.test(p)) ?? matches[0] ?? null;
}

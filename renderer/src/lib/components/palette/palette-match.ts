// The palette's one matching rule, for what the window matches itself (its actions): every
// word typed begins a word of the label, case and accents ignored. The engine's search keeps
// the same rule for brands, colours, files and the Library.
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

export function words(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

export function matches(typed: string, label: string): boolean {
  const want = words(typed);
  if (want.length === 0) return false;
  const have = words(label);
  return want.every((w) => have.some((h) => h.startsWith(w)));
}

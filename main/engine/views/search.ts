// The command palette's search, from the local mirror and the disk (offline): brands by name,
// Library items of every brand by file name, description and source (the store's word
// index), and the Brand Skill on disk of each brand: its colours (by name or hex) and files
// (by path). The same rule everywhere: every word typed must begin a word of what is found,
// accents and case ignored.
import type { SearchDoc } from '../../../contract/index.ts';
import { readManifest } from '../export-parts/skill-manifest.ts';
import { brandDisplayName, type Brand, type Store } from '../store/index.ts';
import { libraryItemDoc } from './library-view.ts';
import { mimeTypeOf, liveSkillDir } from './skill-view.ts';
import { readSkillProfile } from './skill-profile.ts';

const BRANDS = 6;
const COLORS = 8;
const SKILL_FILES = 8;

interface SkillIndex {
  key: string;
  colors: { hex: string; name: string | null; words: string[] }[];
  files: { path: string; size: number; words: string[] }[];
}

// One per store: a brand's Brand Skill is read from disk once per installed version.
const skillIndexes = new WeakMap<Store, Map<string, SkillIndex>>();

/** Lower case, accents removed: "Crème" and "creme" are one word. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

export function searchWords(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** Every word typed begins one of the words (the FTS query's rule, for what is not in SQLite). */
export function matchesWords(typed: readonly string[], words: readonly string[]): boolean {
  return typed.every((t) => words.some((w) => w.startsWith(t)));
}

export async function searchEverything(
  store: Store,
  root: string,
  text: string,
  options: { limit?: number } = {},
): Promise<SearchDoc> {
  const typed = searchWords(text);
  const empty: SearchDoc = { text, brands: [], items: [], colors: [], skillFiles: [] };
  if (typed.length === 0) return empty;
  const brands = store.brands.list({ includeDeleted: true });
  const names = new Map(brands.map((b) => [b.id, brandDisplayName(b)]));
  const nameOf = (id: string) => names.get(id) ?? id;

  const foundBrands = brands
    .map((b) => ({ brand: b, name: brandDisplayName(b) }))
    .filter(({ name }) => matchesWords(typed, searchWords(name)))
    .sort(
      (a, b) =>
        Number(b.name.toLowerCase().startsWith(typed[0] ?? '')) -
          Number(a.name.toLowerCase().startsWith(typed[0] ?? '')) ||
        Number(a.brand.deletedRemotely) - Number(b.brand.deletedRemotely) ||
        a.name.localeCompare(b.name),
    )
    .slice(0, BRANDS)
    .map(({ brand, name }) => ({
      id: brand.id,
      name,
      status: brand.status,
      deletedRemotely: brand.deletedRemotely,
    }));

  const items = store.library
    .find(text, options.limit ?? 20)
    .map((item) => ({ ...libraryItemDoc(store, item), brandName: nameOf(item.brandId) }));

  const colors: SearchDoc['colors'] = [];
  const skillFiles: SearchDoc['skillFiles'] = [];
  for (const brand of brands) {
    if (brand.deletedRemotely) continue;
    const index = await skillIndex(store, root, brand);
    if (index === null) continue;
    const of = { brandId: brand.id, brandName: nameOf(brand.id) };
    collect(colors, COLORS, typed, index.colors, (color) => ({
      ...of,
      hex: color.hex,
      name: color.name,
    }));
    collect(skillFiles, SKILL_FILES, typed, index.files, (file) => ({
      ...of,
      path: file.path,
      name: file.path.split('/').at(-1) ?? file.path,
      mimeType: mimeTypeOf(file.path),
      size: file.size,
      file: { area: 'skill' as const, brandId: brand.id, path: file.path },
    }));
  }
  return { text, brands: foundBrands, items, colors, skillFiles };
}

/** Adds the entries whose words match what was typed (made into docs by `toDoc`), up to `limit` in all. */
function collect<E extends { words: readonly string[] }, D>(
  into: D[],
  limit: number,
  typed: readonly string[],
  entries: readonly E[],
  toDoc: (entry: E) => D,
): void {
  for (const entry of entries) {
    if (into.length >= limit) return;
    if (matchesWords(typed, entry.words)) into.push(toDoc(entry));
  }
}

/** The brand's Brand Skill on disk as words to match; null when none is installed. */
async function skillIndex(store: Store, root: string, brand: Brand): Promise<SkillIndex | null> {
  const live = liveSkillDir(store, root, brand);
  if (live === null) return null;
  const installed = store.exports.latestInstalled(brand.id);
  // A new version is installed by a swap the store records: its time is part of the key.
  const key = `${live}\0${installed?.skillId ?? ''}\0${installed?.installedAt ?? ''}`;
  let cache = skillIndexes.get(store);
  if (cache === undefined) {
    cache = new Map();
    skillIndexes.set(store, cache);
  }
  const known = cache.get(brand.id);
  if (known?.key === key) return known;
  const manifest = await readManifest(live).catch(() => null);
  if (manifest === null) {
    cache.delete(brand.id);
    return null;
  }
  const profile = readSkillProfile(live, manifest.skillId);
  const index: SkillIndex = {
    key,
    colors: (profile?.colors ?? []).map((c) => ({
      hex: c.hex,
      name: c.name,
      words: [...searchWords(c.name ?? ''), fold(c.hex.replace(/^#/, ''))],
    })),
    files: manifest.files.map((f) => ({ path: f.path, size: f.size, words: searchWords(f.path) })),
  };
  cache.set(brand.id, index);
  return index;
}

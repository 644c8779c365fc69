// Where the window is: a section, and for a brand its tab. Kept in the URL's hash so a reload,
// a notification click (Electron) or a bookmarked tab lands in the same place.
/** library: the Library of every brand at once. */
export type Section = 'brands' | 'brand' | 'library' | 'activity' | 'credits' | 'settings';
export type BrandTab = 'library' | 'skill' | 'files' | 'edits';

export interface Place {
  section: Section;
  brandId: string | null;
  tab: BrandTab;
  /** On the Brand Skill tab: the file to show (the palette opens one). */
  file?: string | null;
}

const sections: readonly Section[] = [
  'brands',
  'brand',
  'library',
  'activity',
  'credits',
  'settings',
];
const tabs: readonly BrandTab[] = ['library', 'skill', 'files', 'edits'];

export function parsePlace(hash: string): Place {
  const [section, brandId, tab, file] = hash
    .replace(/^#\/?/, '')
    .split('/')
    .map(decodeURIComponent);
  const known = sections.find((s) => s === section) ?? 'brands';
  if (known === 'brand' && brandId) {
    const shown = tabs.find((t) => t === tab) ?? 'library';
    return {
      section: 'brand',
      brandId,
      tab: shown,
      ...(shown === 'skill' && file ? { file } : {}),
    };
  }
  return { section: known === 'brand' ? 'brands' : known, brandId: null, tab: 'library' };
}

export function hashOf(place: Place): string {
  if (place.section === 'brand' && place.brandId !== null) {
    const file = place.tab === 'skill' && place.file ? `/${encodeURIComponent(place.file)}` : '';
    return `#/brand/${encodeURIComponent(place.brandId)}/${place.tab}${file}`;
  }
  return `#/${place.section}`;
}

export class Router {
  place = $state<Place>(parsePlace(location.hash));

  constructor() {
    addEventListener('hashchange', () => {
      this.place = parsePlace(location.hash);
    });
  }

  go(section: Exclude<Section, 'brand'>): void {
    this.#set({ section, brandId: null, tab: 'library' });
  }

  openBrand(brandId: string, tab: BrandTab = 'library', file: string | null = null): void {
    this.#set({ section: 'brand', brandId, tab, ...(file === null ? {} : { file }) });
  }

  setTab(tab: BrandTab): void {
    if (this.place.section === 'brand') this.#set({ ...this.place, tab, file: null });
  }

  #set(place: Place): void {
    this.place = place;
    const hash = hashOf(place);
    if (location.hash !== hash) history.pushState(null, '', hash);
  }
}

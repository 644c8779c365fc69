// One brand's Library from the local mirror, a page at a time (the list is virtual: 100,000
// items cost what the screen shows). A filter or a search starts over. A `library` event of
// this brand that names the items it added updates the loaded list in place (one small page
// from the top, merged: a Library of 50,000 loaded items is not read again after an upload),
// and one that names the items that left takes them out; one that cannot name them reloads
// what is loaded.
import { createSubscriber } from 'svelte/reactivity';
import type { BridgeError, LibraryItemDoc, LibraryPageDoc } from '../../../../contract/index.ts';
import type { Bridge } from '../bridge/bridge.ts';
import type { EventHub } from './event-hub.svelte.ts';

const PAGE = 500;
/** New items merged in place up to this many at once; beyond, the list reloads. */
const MERGE_AT_MOST = 200;

export class LibraryState {
  /** null: the Library of every brand at once. */
  readonly brandId: string | null;
  items = $state.raw<LibraryItemDoc[]>([]);
  types = $state.raw<LibraryPageDoc['types']>([]);
  total = $state<number | null>(null);
  lastRefreshAt = $state<string | null>(null);
  type = $state<string | null>(null);
  search = $state('');
  loading = $state(false);
  loaded = $state(false);
  error = $state.raw<BridgeError | null>(null);
  selectedId = $state<string | null>(null);
  #cursor: string | null = null;
  #done = $state(false);
  #generation = 0;
  readonly #bridge: Bridge;
  readonly #subscribe: () => void;

  constructor(bridge: Bridge, hub: EventHub, brandId: string | null) {
    this.#bridge = bridge;
    this.brandId = brandId;
    this.#subscribe = createSubscriber(() => {
      if (!this.loaded) void this.reload();
      return hub.on(['library'], (event) => {
        if (event.type === 'library' && (brandId === null || event.brandId === brandId)) {
          if (event.added !== undefined && (event.changed ?? 0) === 0) {
            const removed = event.removed ?? [];
            if (removed.length > 0) this.#removeInPlace(removed);
            if (event.added.length > 0) void this.#addInPlace(event.added.length);
            else if (removed.length > 0) void this.#refreshCounts();
            return;
          }
          void this.reload(Math.max(PAGE, this.items.length));
        } else if (event.type === 'resync') {
          void this.reload(Math.max(PAGE, this.items.length));
        }
      });
    });
  }

  /** Call from a component that shows the Library: keeps it live while shown. */
  track(): void {
    this.#subscribe();
  }

  get selected(): LibraryItemDoc | null {
    return this.items.find((item) => item.id === this.selectedId) ?? null;
  }

  get hasMore(): boolean {
    return !this.#done;
  }

  setType(type: string | null): void {
    this.type = type;
    void this.reload();
  }

  setSearch(search: string): void {
    this.search = search;
    void this.reload();
  }

  /** Starts over with the current filter, reading at least `want` items. */
  async reload(want = PAGE): Promise<void> {
    const generation = ++this.#generation;
    this.#cursor = null;
    this.#done = false;
    const items: LibraryItemDoc[] = [];
    this.loading = true;
    while (items.length < want && !this.#done) {
      const page = await this.#page(generation);
      if (page === null) return;
      items.push(...page);
    }
    if (generation !== this.#generation) return;
    this.items = items;
    this.loaded = true;
    this.loading = false;
  }

  /**
   * New items came in (most recent first): the top of the list is read again and merged with
   * what is loaded. When the new items do not meet the loaded ones, the list reloads.
   */
  async #addInPlace(count: number): Promise<void> {
    if (!this.loaded || count > MERGE_AT_MOST) {
      await this.reload(Math.max(PAGE, this.items.length + count));
      return;
    }
    const generation = this.#generation;
    const search = this.search.trim();
    const result = await this.#bridge.call('library', {
      ...this.#brand(),
      limit: count + 20,
      cursor: null,
      ...(this.type === null ? {} : { type: this.type }),
      ...(search === '' ? {} : { search }),
    });
    if (generation !== this.#generation || !result.ok) return;
    const page = result.data;
    // A lookup for this merge only, not state the page shows.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    const top = new Set(page.items.map((item) => item.id));
    const last = page.items.at(-1);
    const meets =
      page.nextCursor === null || last === undefined || this.items.some((i) => i.id === last.id);
    if (!meets) {
      await this.reload(Math.max(PAGE, this.items.length + count));
      return;
    }
    const rest = this.items.filter((item) => !top.has(item.id));
    this.items = page.nextCursor === null ? page.items : [...page.items, ...rest];
    if (page.nextCursor === null) {
      this.#cursor = null;
      this.#done = true;
    }
    this.types = page.types;
    this.total = page.total;
    this.lastRefreshAt = page.lastRefreshAt;
  }

  /** Items that left the Library are taken out of what is loaded (nothing is read again). */
  #removeInPlace(ids: readonly string[]): void {
    // A lookup for this filter only, not state the page shows.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    const gone = new Set(ids);
    this.items = this.items.filter((item) => !gone.has(item.id));
    if (this.selectedId !== null && gone.has(this.selectedId)) this.selectedId = null;
  }

  /** The counts and the mirror's age again, from one item's page. */
  async #refreshCounts(): Promise<void> {
    const generation = this.#generation;
    const search = this.search.trim();
    const result = await this.#bridge.call('library', {
      ...this.#brand(),
      limit: 1,
      cursor: null,
      ...(this.type === null ? {} : { type: this.type }),
      ...(search === '' ? {} : { search }),
    });
    if (generation !== this.#generation || !result.ok) return;
    this.types = result.data.types;
    this.total = result.data.total;
    this.lastRefreshAt = result.data.lastRefreshAt;
  }

  /** The next page, when the list scrolls near its end. */
  async more(): Promise<void> {
    if (this.loading || this.#done) return;
    const generation = this.#generation;
    this.loading = true;
    const page = await this.#page(generation);
    if (page === null || generation !== this.#generation) return;
    this.items = [...this.items, ...page];
    this.loading = false;
  }

  #brand(): { brandId?: string } {
    return this.brandId === null ? {} : { brandId: this.brandId };
  }

  async #page(generation: number): Promise<LibraryItemDoc[] | null> {
    const search = this.search.trim();
    const result = await this.#bridge.call('library', {
      ...this.#brand(),
      limit: PAGE,
      cursor: this.#cursor,
      ...(this.type === null ? {} : { type: this.type }),
      ...(search === '' ? {} : { search }),
    });
    if (generation !== this.#generation) return null;
    if (!result.ok) {
      this.error = result.error;
      this.loading = false;
      this.loaded = true;
      return null;
    }
    this.error = null;
    const page = result.data;
    this.types = page.types;
    this.total = page.total;
    this.lastRefreshAt = page.lastRefreshAt;
    this.#cursor = page.nextCursor;
    this.#done = page.nextCursor === null;
    return page.items;
  }
}

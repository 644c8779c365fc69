// One brand's Library from the local mirror, a page at a time (the list is virtual: 100,000
// items cost what the screen shows). A filter or a search starts over; a `library` event of
// this brand reloads what is loaded, so a new upload appears without a reload.
import { createSubscriber } from 'svelte/reactivity';
import type { BridgeError, LibraryItemDoc, LibraryPageDoc } from '../../../../contract/index.ts';
import type { Bridge } from '../bridge/bridge.ts';
import type { EventHub } from './event-hub.svelte.ts';

const PAGE = 500;

export class LibraryState {
  readonly brandId: string;
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

  constructor(bridge: Bridge, hub: EventHub, brandId: string) {
    this.#bridge = bridge;
    this.brandId = brandId;
    this.#subscribe = createSubscriber(() => {
      if (!this.loaded) void this.reload();
      return hub.on(['library'], (event) => {
        if (event.type === 'resync' || ('brandId' in event && event.brandId === brandId)) {
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

  async #page(generation: number): Promise<LibraryItemDoc[] | null> {
    const search = this.search.trim();
    const result = await this.#bridge.call('library', {
      brandId: this.brandId,
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

// The one root that wires the window's state: every state class gets the bridge and the event
// hub through its constructor, and components get this root from the Svelte context.
import { getContext, setContext } from 'svelte';
import type {
  ActivityDoc,
  BrandDoc,
  FilesDoc,
  NumberedEvent,
  Output,
  SessionDoc,
  SettingsDoc,
  SkillDoc,
  StatusDoc,
} from '../../../../contract/index.ts';
import type { Bridge } from '../bridge/bridge.ts';
import { EventHub, type EventType } from './event-hub.svelte.ts';
import { LibraryState } from './library.svelte.ts';
import { LiveQuery, type LiveQueryOptions } from './live-query.svelte.ts';
import { PaletteState } from './palette.svelte.ts';
import { Router } from './router.svelte.ts';
import { Theme } from './theme.svelte.ts';
import { Toasts } from './toasts.svelte.ts';

const forBrand = (brandId: string) => (event: NumberedEvent) =>
  'brandId' in event && (event.brandId === brandId || event.brandId === null);

export class AppState {
  readonly bridge: Bridge;
  readonly hub: EventHub;
  readonly router = new Router();
  readonly toasts: Toasts;
  readonly theme: Theme;
  readonly session: LiveQuery<SessionDoc>;
  readonly status: LiveQuery<StatusDoc>;
  readonly credits: LiveQuery<Output<'credits'>>;
  readonly settings: LiveQuery<SettingsDoc>;
  readonly activity: LiveQuery<ActivityDoc>;
  /** The image edits the engine follows (and the last finished), kept by its `image` events. */
  readonly imageEdits: LiveQuery<Output<'imageEdits'>>;
  // Made once per brand and never shown as such: a plain Map, not reactive state.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #perBrand = new Map<string, BrandStates>();

  constructor(bridge: Bridge) {
    this.bridge = bridge;
    this.hub = new EventHub(bridge);
    this.toasts = new Toasts(this.hub);
    this.session = this.#live(['session', 'connection'], () => bridge.call('session', {}));
    this.status = this.#live(
      ['brand', 'queue', 'connection', 'credits', 'files', 'edits', 'skill', 'session'],
      () => bridge.call('status', {}),
      250,
    );
    this.credits = this.#live(['credits'], () => bridge.call('credits', {}));
    this.settings = this.#live(['settings'], () => bridge.call('settings', {}));
    this.theme = new Theme(this.settings);
    this.imageEdits = this.#live(['image'], () => bridge.call('imageEdits', {}));
    this.activity = this.#live(
      ['job', 'queue', 'connection', 'session', 'edits'],
      () => bridge.call('activity', { limit: 100 }),
      300,
    );
  }

  /** A query of the whole window, asked again on these event types. */
  #live<T>(
    types: readonly EventType[],
    load: LiveQueryOptions<T>['load'],
    debounceMs?: number,
  ): LiveQuery<T> {
    return new LiveQuery({ hub: this.hub, types, load, ...(debounceMs ? { debounceMs } : {}) });
  }

  start(): void {
    this.hub.start();
  }

  /** The path of a folder no file manager could open (FolderNotOpened shows it to copy). */
  folderNotOpened = $state<string | null>(null);

  /** The command palette's state, made with the palette (it starts empty each time). */
  newPalette(): PaletteState {
    return new PaletteState(this.bridge);
  }

  /** The Library of every brand, made with its view (a filter set there starts over). */
  allLibrary(): LibraryState {
    return new LibraryState(this.bridge, this.hub, null);
  }

  /** The states of one brand's page, made once and kept while the window lives. */
  brand(brandId: string): BrandStates {
    let states = this.#perBrand.get(brandId);
    if (states === undefined) {
      const { bridge, hub } = this;
      states = {
        library: new LibraryState(bridge, hub, brandId),
        details: new LiveQuery({
          hub,
          types: ['brand'],
          relevant: forBrand(brandId),
          load: () => bridge.call('brand', { brandId }),
        }),
        skill: new LiveQuery({
          hub,
          // The brand's record says which Brand Skill is active on the service.
          types: ['skill', 'brand'],
          relevant: forBrand(brandId),
          load: () => bridge.call('skill', { brandId }),
        }),
        files: new LiveQuery({
          hub,
          types: ['files', 'job'],
          relevant: forBrand(brandId),
          load: () => bridge.call('files', { brandId }),
          debounceMs: 200,
        }),
        edits: new LiveQuery({
          hub,
          types: ['edits'],
          relevant: forBrand(brandId),
          load: () => bridge.call('edits', { brandId }),
        }),
      };
      this.#perBrand.set(brandId, states);
    }
    return states;
  }
}

export type BrandStates = {
  library: LibraryState;
  details: LiveQuery<BrandDoc>;
  skill: LiveQuery<SkillDoc>;
  files: LiveQuery<FilesDoc>;
  edits: LiveQuery<Output<'edits'>>;
};

const KEY = Symbol('app');

export function provideApp(app: AppState): void {
  setContext(KEY, app);
}

export function useApp(): AppState {
  return getContext<AppState>(KEY);
}

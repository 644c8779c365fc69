// Light and dark follow the OS unless the settings say otherwise; the choice is applied to
// the document as `data-theme` so the CSS tokens switch in one place.
import type { SettingsDoc } from '../../../../contract/index.ts';
import type { LiveQuery } from './live-query.svelte.ts';

export class Theme {
  #systemDark = $state(matchMedia('(prefers-color-scheme: dark)').matches);
  /** A choice made in this window before the settings answer arrives. */
  #override = $state<SettingsDoc['theme'] | null>(null);
  readonly #settings: LiveQuery<SettingsDoc>;

  constructor(settings: LiveQuery<SettingsDoc>) {
    this.#settings = settings;
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', (e) => {
      this.#systemDark = e.matches;
    });
  }

  get setting(): SettingsDoc['theme'] {
    return this.#override ?? this.#settings.data?.theme ?? 'system';
  }

  set setting(value: SettingsDoc['theme']) {
    this.#override = value;
  }

  get resolved(): 'light' | 'dark' {
    const setting = this.setting;
    if (setting === 'system') return this.#systemDark ? 'dark' : 'light';
    return setting;
  }
}

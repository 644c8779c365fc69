// What the palette lists for an answer, in groups and in order: the actions the words name,
// then brands, colours, Brand Skill files and Library items. Each entry has a value unique in
// the list (the combobox's option value) and what choosing it does, as data.
import type { SearchDoc } from '../../../../../contract/index.ts';
import { matches } from './palette-match.ts';

export type ActionId =
  | 'pause'
  | 'resume'
  | 'sync-now'
  | 'new-brand'
  | 'open-root'
  | 'sign-out'
  | 'all-library'
  | 'activity'
  | 'settings';

export interface PaletteAction {
  id: ActionId;
  label: string;
  /** More words it answers to ("stop" finds pause). */
  keywords: string;
}

export type PaletteEntry =
  | { kind: 'action'; value: string; action: PaletteAction }
  | { kind: 'brand'; value: string; brand: SearchDoc['brands'][number] }
  | { kind: 'color'; value: string; color: SearchDoc['colors'][number] }
  | { kind: 'skill-file'; value: string; file: SearchDoc['skillFiles'][number] }
  | { kind: 'item'; value: string; item: SearchDoc['items'][number] };

export interface PaletteGroup {
  heading: string;
  entries: PaletteEntry[];
}

/** The actions offered now (pause or resume, as the queue is). */
export function actionsFor(userPaused: boolean): PaletteAction[] {
  return [
    userPaused
      ? { id: 'resume', label: 'Resume syncing', keywords: 'start continue queue' }
      : { id: 'pause', label: 'Pause syncing', keywords: 'stop hold queue' },
    { id: 'sync-now', label: 'Sync now', keywords: 'refresh check service reconcile' },
    { id: 'new-brand', label: 'New brand…', keywords: 'create add' },
    { id: 'open-root', label: 'Open the Brand Sync folder', keywords: 'reveal finder files root' },
    {
      id: 'all-library',
      label: 'Go to the Library of all brands',
      keywords: 'assets images every',
    },
    { id: 'activity', label: 'Go to Activity', keywords: 'queue jobs log' },
    { id: 'settings', label: 'Go to Settings', keywords: 'preferences options' },
    { id: 'sign-out', label: 'Sign out', keywords: 'log logout key' },
  ];
}

export function paletteGroups(
  text: string,
  result: SearchDoc | null,
  actions: readonly PaletteAction[],
): PaletteGroup[] {
  const groups: PaletteGroup[] = [];
  const push = (heading: string, entries: PaletteEntry[]) => {
    if (entries.length > 0) groups.push({ heading, entries });
  };
  push(
    'Actions',
    actions
      .filter((a) => matches(text, `${a.label} ${a.keywords}`))
      .map((action) => ({ kind: 'action' as const, value: `action:${action.id}`, action })),
  );
  if (result === null) return groups;
  push(
    'Brands',
    result.brands.map((brand) => ({ kind: 'brand' as const, value: `brand:${brand.id}`, brand })),
  );
  push(
    'Colours',
    result.colors.map((color) => ({
      kind: 'color' as const,
      value: `color:${color.brandId}:${color.hex}:${color.name ?? ''}`,
      color,
    })),
  );
  push(
    'Brand Skill files',
    result.skillFiles.map((file) => ({
      kind: 'skill-file' as const,
      value: `file:${file.brandId}:${file.path}`,
      file,
    })),
  );
  push(
    'Library',
    result.items.map((item) => ({ kind: 'item' as const, value: `item:${item.id}`, item })),
  );
  return groups;
}

// The settings' actions: a change saved (its refusal in words, for the field), the media
// cache cleared.
import type { Input } from '../../../../contract/index.ts';
import { errorWords } from '../format/error-words.ts';
import type { AppState } from '../state/app-state.svelte.ts';
import { attempt } from './attempt.ts';

/** Saves `change`; returns the refusal in words (fields named by `labels`), or null. */
export async function saveSettings(
  app: AppState,
  change: Input<'updateSettings'>,
  labels: Record<string, string>,
): Promise<string | null> {
  const result = await app.bridge.call('updateSettings', change);
  if (!result.ok) return errorWords(result.error, labels);
  app.settings.set(result.data);
  return null;
}

export async function clearMediaCache(app: AppState): Promise<void> {
  const call = app.bridge.call('clearMediaCache', {});
  const result = await attempt(app, call, 'Could not clear the cache');
  if (!result.ok) return;
  app.settings.set(result.data);
  app.toasts.show('success', 'Media cache cleared', 'Thumbnails download again when shown.');
}

// The account's actions: sign in (the sync folder saved first when it changed), sign out.
import type { BridgeError, Input } from '../../../../contract/index.ts';
import type { AppState } from '../state/app-state.svelte.ts';
import { attempt } from './attempt.ts';

export async function signOut(app: AppState): Promise<void> {
  const result = await attempt(app, app.bridge.call('signOut', {}), 'Could not sign out');
  if (result.ok) app.session.set(result.data);
}

/** Signs in; the refusal is returned for the form to place beside its field. */
export async function signIn(app: AppState, input: Input<'signIn'>): Promise<BridgeError | null> {
  const result = await app.bridge.call('signIn', input);
  if (!result.ok) return result.error;
  app.session.set(result.data);
  void app.status.refresh();
  app.toasts.show('success', 'Signed in', 'Your brands are syncing.');
  return null;
}

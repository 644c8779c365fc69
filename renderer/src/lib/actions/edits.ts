// A Brand Edit's actions: apply, discard, answer the service's question. A refusal is
// returned for the edit's own page to explain; what went through is said in a toast.
import type { BridgeError, Input } from '../../../../contract/index.ts';
import type { AppState } from '../state/app-state.svelte.ts';

/** Applies or discards an edit; returns the refusal, or null once it went through. */
export async function decideEdit(
  app: AppState,
  decision: 'applyEdit' | 'discardEdit',
  ids: { brandId: string; editId: string },
): Promise<BridgeError | null> {
  if (decision === 'applyEdit') {
    const result = await app.bridge.call('applyEdit', ids);
    if (!result.ok) return result.error;
    app.toasts.show('success', 'Edit applied', result.data.skill.message, ids.brandId);
  } else {
    const result = await app.bridge.call('discardEdit', ids);
    if (!result.ok) return result.error;
    app.toasts.show('info', 'Edit discarded', 'The brand is unchanged.');
  }
  return null;
}

/** Sends an answer; returns the refusal's message, or null when it was taken. */
export async function answerEdit(
  app: AppState,
  input: Input<'answerEdit'>,
): Promise<string | null> {
  const result = await app.bridge.call('answerEdit', input);
  if (!result.ok) return result.error.message;
  app.toasts.show('success', 'Answer sent', 'The service prepares the edit again with it.');
  return null;
}

// The shape every action shares: ask the engine, and when it refuses, say so in a toast
// titled by what was tried (the engine's message beneath). The caller acts on the answer.
import type { Result } from '../../../../contract/index.ts';
import type { AppState } from '../state/app-state.svelte.ts';

export async function attempt<T>(
  app: AppState,
  call: Promise<Result<T>>,
  failed: string,
): Promise<Result<T>> {
  const result = await call;
  if (!result.ok) app.toasts.show('error', failed, result.error.message);
  return result;
}

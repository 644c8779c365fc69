// A brand's actions: create, create again after a failure, delete, forget one removed on the
// service, bring its Brand Skill.
// The brand list is asked again after each, so the cards follow at once.
import type { BrandSummary, Input, Output, Result } from '../../../../contract/index.ts';
import { errorWords } from '../format/error-words.ts';
import type { AppState } from '../state/app-state.svelte.ts';
import { attempt } from './attempt.ts';

/** Creates a brand; a refusal is returned for the form to place beside its fields. */
export async function createBrand(
  app: AppState,
  input: Input<'createBrand'>,
): Promise<Result<Output<'createBrand'>>> {
  const result = await app.bridge.call('createBrand', input);
  if (!result.ok) return result;
  if (result.data.brandId === null) {
    app.toasts.show(
      'info',
      'The brand will be created when the service is back',
      'It waits in Activity; nothing you gave is lost.',
    );
  } else void app.status.refresh();
  return result;
}

/** A failed creation, sent again with the same sources: the refusal in words, or the new one. */
export async function retryBrand(
  app: AppState,
  brandId: string,
): Promise<{ ok: true; data: Output<'retryBrand'> } | { ok: false; words: string }> {
  const result = await app.bridge.call('retryBrand', { brandId });
  if (!result.ok) return { ok: false, words: errorWords(result.error) };
  void app.status.refresh();
  return result;
}

/** Deletes a brand on the service; returns the refusal's message, or null once it is gone. */
export async function deleteBrand(app: AppState, brand: BrandSummary): Promise<string | null> {
  const result = await app.bridge.call('deleteBrand', { brandId: brand.id });
  if (!result.ok) return result.error.message;
  const { folderKept } = result.data;
  const where = folderKept ? `Its folder stays at ${folderKept}.` : '';
  app.toasts.show('success', `${brand.name} was deleted`, where);
  app.router.go('brands');
  void app.status.refresh();
  return null;
}

export async function syncSkill(app: AppState, brandId: string): Promise<void> {
  app.toasts.show('info', 'Bringing the latest Brand Skill…');
  const call = app.bridge.call('syncSkill', { brandId });
  const result = await attempt(app, call, 'Could not bring the Brand Skill');
  if (!result.ok) return;
  app.toasts.show(result.data.ok ? 'success' : 'warning', 'Brand Skill', result.data.message);
}

/** Forgets a brand removed on the service (its folder stays); the lists follow the event. */
export async function forgetBrand(app: AppState, brandId: string, name: string): Promise<boolean> {
  const result = await attempt(
    app,
    app.bridge.call('forgetBrand', { brandId }),
    `Could not remove ${name}`,
  );
  if (!result.ok) return false;
  if (app.router.place.brandId === brandId) app.router.go('brands');
  const { folderKept } = result.data;
  const kept = folderKept ? `Its folder is kept: ${folderKept}` : '';
  app.toasts.show('info', `${name} was removed from Brand Sync`, kept);
  return true;
}

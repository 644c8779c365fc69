// The Library's actions: images to pick from, and an image edit (its cost first).
import type { Input, LibraryItemDoc, Output, Result } from '../../../../contract/index.ts';
import type { AppState } from '../state/app-state.svelte.ts';

/** A brand's images for a picker: one page, narrowed by `search`. */
export function libraryImages(
  app: AppState,
  brandId: string,
  search: string,
  limit: number,
): Promise<Result<Output<'library'>>> {
  return app.bridge.call('library', {
    brandId,
    type: 'image',
    limit,
    ...(search ? { search } : {}),
  });
}

export function imageEditQuote(
  app: AppState,
  item: LibraryItemDoc,
  size: string,
): Promise<Result<Output<'imageEditQuote'>>> {
  return app.bridge.call('imageEditQuote', { brandId: item.brandId, size });
}

/** Starts an image edit; the engine follows it and its `image` events tell the rest. */
export function imageEdit(
  app: AppState,
  input: Input<'imageEdit'>,
): Promise<Result<Output<'imageEdit'>>> {
  return app.bridge.call('imageEdit', input);
}

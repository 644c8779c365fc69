// Deleting a brand: on the service only. The folder on disk stays as it is (the user's
// files are never deleted for them); the store marks the brand deleted, so nothing syncs to
// it any more, and says which folder was left.
import { isApiError } from '../api/index.ts';
import type { ApiClient, DeletedBrand } from '../api/index.ts';
import type { Store } from '../store/index.ts';

export interface DeleteBrandDeps {
  store: Store;
  client: ApiClient;
}

export interface DeletedBrandResult {
  id: string;
  name: string | null;
  /** The brand's folder under the sync root, kept; null when this machine has none. */
  folderName: string | null;
}

export async function deleteBrand(
  deps: DeleteBrandDeps,
  id: string,
  signal?: AbortSignal,
): Promise<DeletedBrandResult> {
  let deleted: DeletedBrand;
  try {
    deleted = await deps.client.deleteBrand(id, { signal });
  } catch (error) {
    // Gone there already (deleted elsewhere): the store learns it too, and the error stands.
    if (isApiError(error) && error.code === 'BRAND_NOT_FOUND') markDeleted(deps.store, id);
    throw error;
  }
  const known = markDeleted(deps.store, id);
  return {
    id,
    name: deleted.name ?? known?.name ?? null,
    folderName: known?.folderName ?? null,
  };
}

function markDeleted(store: Store, id: string) {
  const known = store.brands.get(id);
  if (known !== undefined) store.brands.markDeletedRemotely(id);
  return known;
}

// Linking a brand to its folder under the sync root: found by its marker, adopted, or made;
// the store's link follows, and a folder made is announced. The brand listing and an export
// job both link this way, inside `withFolderMaking`, so they never make one folder each.
import type { TypedEmitter } from '../queue/index.ts';
import type { Store } from '../store/index.ts';
import { brandDisplayName } from '../store/index.ts';
import {
  discoverBrandFolders,
  ensureBrandFolder,
  ensureSyncRoot,
  type BrandFolder,
  type Discovery,
} from '../folder-parts/brand-folders.ts';
import type { EngineEvents } from '../core/engine-events.ts';

export interface FolderLinkDeps {
  store: Store;
  root: string;
  events: TypedEmitter<EngineEvents>;
}

/** The root's brand folders as they are now, each stored link a hint for its marker. */
export async function discoverLinked(deps: FolderLinkDeps): Promise<Discovery> {
  await ensureSyncRoot(deps.root);
  const knownDirNames = new Map(
    deps.store.brands
      .list({ includeDeleted: true })
      .filter((b) => b.folderName !== null)
      .map((b) => [b.id, b.folderName as string]),
  );
  return discoverBrandFolders(deps.root, { knownDirNames });
}

/** The brand's folder, made when it has none; the discovery learns it for the next brand. */
export async function linkBrandFolder(
  deps: FolderLinkDeps,
  brand: { id: string; name: string | null },
  discovery: Discovery,
): Promise<BrandFolder> {
  const { store } = deps;
  const { folder, created } = await ensureBrandFolder(deps.root, brand, { discovery });
  discovery.byBrandId.set(folder.brandId, folder);
  const stored = store.brands.linkOf(brand.id);
  if (stored !== undefined && stored.folderName !== folder.dirName) {
    // A folder name may have been held by a brand since deleted: that link yields.
    const holder = store.brands.findByFolder(folder.dirName);
    store.transaction(() => {
      if (holder !== undefined && holder.id !== brand.id) store.brands.setFolder(holder.id, null);
      store.brands.setFolder(brand.id, folder.dirName);
    });
  }
  if (created) {
    deps.events.emit('notice', {
      level: 'info',
      code: 'BRAND_FOLDER_CREATED',
      brandId: brand.id,
      message: `Created the folder "${folder.dirName}" for brand "${brandDisplayName({ ...brand, folderName: null })}".`,
    });
  }
  return folder;
}

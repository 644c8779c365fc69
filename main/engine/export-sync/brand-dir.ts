// Where a brand's `Brand Skill/` goes: its folder under the sync root. Normally the store's
// folder name from the latest brand listing; a folder renamed since is found by its marker.
// A brand no listing has linked yet (`exports sync ID` on a new machine, a beta brand) gets
// its folder made here, the way the listing makes it.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { TransientError } from '../queue/index.ts';
import type { TypedEmitter } from '../queue/index.ts';
import type { EngineEvents } from '../engine-events.ts';
import {
  discoverBrandFolders,
  ensureBrandFolder,
  ensureSyncRoot,
} from '../folders/brand-folders.ts';
import type { Store } from '../store/index.ts';

export interface BrandDirDeps {
  store: Store;
  root: string;
  events: TypedEmitter<EngineEvents>;
}

/** The absolute path of the brand's folder; made (with its marker) when there is none. */
export async function brandFolderFor(
  deps: BrandDirDeps,
  brand: { id: string; name: string | null },
): Promise<string> {
  const { store, root } = deps;
  const stored = store.brands.get(brand.id);
  if (stored?.folderName) {
    const dir = path.join(root, stored.folderName);
    if (await isDirectory(dir)) return dir;
  }
  await ensureSyncRoot(root);
  const knownDirNames = new Map(
    store.brands
      .list({ includeDeleted: true })
      .filter((b) => b.folderName !== null)
      .map((b) => [b.id, b.folderName as string]),
  );
  const discovery = await discoverBrandFolders(root, { knownDirNames });
  if (stored?.folderName && !discovery.byBrandId.has(brand.id.toLowerCase())) {
    // Its folder is gone: the brand listing makes it again, and two makers at once would
    // make two ("Acme", "Acme (2)"). Try again once the listing has run.
    throw new TransientError(
      'BRAND_FOLDER_MISSING',
      `The folder "${stored.folderName}" of brand "${brand.name ?? brand.id}" is missing; it is made again by the next brand listing.`,
    );
  }
  const { folder, created } = await ensureBrandFolder(root, brand, { discovery });
  if (stored !== undefined && stored.folderName !== folder.dirName) {
    // As in the listing: a name held by a brand since deleted yields to this one.
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
      message: `Created the folder "${folder.dirName}" for brand "${brand.name ?? brand.id}".`,
    });
  }
  return folder.absPath;
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

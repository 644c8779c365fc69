// Where a brand's `Brand Skill/` goes: its folder under the sync root. Normally the store's
// folder name from the latest brand listing; a folder renamed since is found by its marker.
// A brand no listing has linked yet (`exports sync ID` on a new machine, a beta brand), or
// whose folder was deleted, gets its folder made here, the way the listing makes it.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { withFolderMaking } from '../folder-parts/brand-folders.ts';
import {
  discoverLinked,
  linkBrandFolder,
  type FolderLinkDeps,
} from '../brands/brand-folder-link.ts';

export type BrandDirDeps = FolderLinkDeps;

/** The absolute path of the brand's folder; made (with its marker) when there is none. */
export async function brandFolderFor(
  deps: BrandDirDeps,
  brand: { id: string; name: string | null },
): Promise<string> {
  const stored = deps.store.brands.linkOf(brand.id);
  if (stored?.folderName) {
    const dir = path.join(deps.root, stored.folderName);
    if (await isDirectory(dir)) return dir;
  }
  // Renamed or gone: found by its marker, or made again, as the listing would. The listing
  // makes folders under the same lock, so the two never make one each.
  return withFolderMaking(deps.root, async () => {
    return (await linkBrandFolder(deps, brand, await discoverLinked(deps))).absPath;
  });
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

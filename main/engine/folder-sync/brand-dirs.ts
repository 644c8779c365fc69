// Which brand a folder under the sync root belongs to, and where a file of the index lies
// on disk. The store links each brand to its folder name; a folder renamed by the user is
// recognised by its marker and linked again; a copied folder (a second folder with the
// same marker) is not synced, as the brand refresh already told the user.
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { readMarker } from '../folder-parts/brand-folders.ts';
import { errnoCode } from '../folder-parts/folder-errors.ts';
import type { Brand, BrandLink, Store } from '../store/index.ts';
import { brandDisplayName } from '../store/index.ts';
import type { FileNotices } from './file-notices.ts';

export class BrandDirs {
  readonly #store: Store;
  readonly #root: string;
  readonly #notices: FileNotices;
  /** Folder names known to belong to no live brand (until the next brand listing or addDir). */
  readonly #unlinked = new Set<string>();

  constructor(store: Store, root: string, notices: FileNotices) {
    this.#store = store;
    this.#root = root;
    this.#notices = notices;
  }

  get root(): string {
    return this.#root;
  }

  /** A live brand with a folder (the service still has it), or undefined. */
  brand(brandId: string): (BrandLink & { folderName: string }) | undefined {
    const brand = this.#store.brands.linkOf(brandId);
    if (brand === undefined || brand.deletedRemotely || brand.folderName === null) return undefined;
    return brand as BrandLink & { folderName: string };
  }

  /** Every live brand with a folder. */
  linked(): (Brand & { folderName: string })[] {
    return this.#store.brands
      .list()
      .filter((b): b is Brand & { folderName: string } => b.folderName !== null);
  }

  /** Forget what is known of folder names (a listing or a folder event changed them). */
  invalidate(dirName?: string): void {
    if (dirName === undefined) this.#unlinked.clear();
    else this.#unlinked.delete(dirName);
  }

  /** The live brand whose folder is `dirName` (as on disk), or null. */
  async brandOf(dirName: string): Promise<string | null> {
    const linked = this.#store.brands.findByFolder(dirName);
    if (linked !== undefined) return linked.deletedRemotely ? null : linked.id;
    if (this.#unlinked.has(dirName)) return null;
    const id = await this.#relink(dirName);
    if (id === null) this.#unlinked.add(dirName);
    return id;
  }

  /** A folder the store does not know: a brand folder the user renamed, or nothing of ours. */
  async #relink(dirName: string): Promise<string | null> {
    const read = await readMarker(path.join(this.#root, dirName));
    if (read.status !== 'ok') return null;
    const brand = this.#store.brands.get(read.marker.brandId);
    if (brand === undefined || brand.deletedRemotely) return null;
    if (brand.folderName !== null && brand.folderName !== dirName) {
      const current = await readMarker(path.join(this.#root, brand.folderName));
      // The linked folder still carries the marker: this one is a copy.
      if (current.status === 'ok' && current.marker.brandId === brand.id) return null;
    }
    this.#store.brands.setFolder(brand.id, dirName);
    this.#notices.tell({
      level: 'info',
      code: 'BRAND_FOLDER_RELINKED',
      brandId: brand.id,
      message: `The folder of brand "${brandDisplayName(brand)}" is now "${dirName}"${brand.folderName ? ` (was "${brand.folderName}")` : ''}.`,
    });
    return brand.id;
  }

  /**
   * The brand's folder as it is on disk now: the linked one if it exists, else the folder
   * carrying its marker (renamed while the app was closed: linked again), else null.
   */
  async currentFolder(brandId: string): Promise<string | null> {
    const brand = this.brand(brandId);
    if (brand === undefined) return null;
    const s = await lstat(this.dirPath(brand.folderName)).catch(() => undefined);
    if (s?.isDirectory()) return brand.folderName;
    let names: string[];
    try {
      names = await readdir(this.#root);
    } catch {
      return null;
    }
    for (const name of names) {
      if (name.startsWith('.') || this.#store.brands.findByFolder(name) !== undefined) continue;
      if ((await this.brandOf(name)) === brandId) return name;
    }
    return null;
  }

  /** The absolute path of a brand folder. */
  dirPath(folderName: string): string {
    return path.join(this.#root, folderName);
  }

  /**
   * Where the file `relPath` (NFC, '/') of a brand folder is on disk, or null when it is not
   * there. The index keeps names in NFC; a disk may hold them in another form (NFD from a
   * Mac), so a missing path is looked up entry by entry.
   */
  async locate(folderName: string, relPath: string): Promise<string | null> {
    const parts = relPath.split('/');
    const direct = path.join(this.#root, folderName, ...parts);
    try {
      await lstat(direct);
      return direct;
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT' && errnoCode(error) !== 'ENOTDIR') return direct;
    }
    let dir = path.join(this.#root, folderName);
    for (const part of parts) {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch {
        return null;
      }
      const match = names.find((n) => n === part) ?? names.find((n) => n.normalize('NFC') === part);
      if (match === undefined) return null;
      dir = path.join(dir, match);
    }
    return dir;
  }
}

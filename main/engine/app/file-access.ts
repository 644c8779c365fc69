// The files a window may load, for every host: `media/<item>` (the media cache, fetched first
// when online), `skill/<brand>/<path>` (the Brand Skill on disk) and `folder/<brand>/<path>`
// (the brand folder). Anything else, or anything outside those places (traversal, symlinks
// out, encoded dots once decoded), is null: the host answers 404.
import path from 'node:path';
import { lookupBrand } from '../views/brand-lookup.ts';
import { resolveInside } from '../views/safe-path.ts';
import { mimeTypeOf, skillFilePath } from '../views/skill-view.ts';
import type { AppRuntime } from './app-runtime.ts';
import { mediaFile } from './media.ts';

export interface ServedFile {
  path: string;
  mimeType: string;
}

/** `rest` is the decoded path after `/files/`, split on `/`. */
export async function fileFor(
  app: AppRuntime,
  rest: readonly string[],
): Promise<ServedFile | null> {
  const [area, id, ...inner] = rest;
  if (area === undefined || id === undefined || id === '') return null;
  if (area === 'media') {
    if (inner.length > 0) return null;
    const file = await mediaFile(app, id);
    return file === null
      ? null
      : { path: file.path, mimeType: file.mimeType ?? mimeTypeOf(file.path) };
  }
  if (area !== 'skill' && area !== 'folder') return null;
  let brand;
  try {
    brand = app.store.brands.get(lookupBrand(app.store, id));
  } catch {
    return null;
  }
  if (brand === undefined) return null;
  const rel = inner.join('/');
  let file: string | null = null;
  if (area === 'skill') file = await skillFilePath(app.store, app.root, brand, rel);
  else if (brand.folderName !== null)
    file = await resolveInside(path.join(app.root, brand.folderName), rel);
  return file === null ? null : { path: file, mimeType: mimeTypeOf(file) };
}

// Library media for the window: from the cache in the data dir (offline), fetched into it
// first when the engine is online. One cache per runtime, capped by its setting.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromFile } from 'file-type';
import {
  MEDIA_CACHE_DIR,
  MediaCache,
  mediaCacheDir,
  MirrorError,
  type CachedFile,
} from '../library/index.ts';
import { openLibraryItem } from '../library/open-library-item.ts';
import type { Engine } from '../core/engine.ts';
import type { Store } from '../store/index.ts';

export { MEDIA_CACHE_DIR };

/**
 * What the media cache needs of the app runtime: named here rather than imported, since the
 * runtime fetches a finished image edit's result through this module.
 */
export interface MediaHost {
  readonly store: Store;
  readonly dataDir: string;
  readonly engine: Engine | null;
  requireEngine(): Engine;
}

const caches = new WeakMap<MediaHost, MediaCache>();

export function mediaCacheOf(app: MediaHost): MediaCache {
  let cache = caches.get(app);
  if (cache === undefined) {
    cache = new MediaCache({
      store: app.store,
      dir: mediaCacheDir(app.dataDir),
      download: (url, dest, options) => {
        const engine = app.engine;
        if (engine === null) {
          throw new MirrorError(
            'OFFLINE',
            'This file was never fetched, and Brand Sync is not signed in to fetch it.',
          );
        }
        return engine.client.downloadToFile(url, dest, options);
      },
    });
    caches.set(app, cache);
  }
  return cache;
}

/**
 * The item's cached file; fetched first when it is not cached and the engine can (a Library
 * item is opened as `library open` opens it). An image the mirror does not hold yet (the
 * result of an image edit) is fetched by its image ID.
 */
export async function mediaFile(
  app: MediaHost,
  itemId: string,
  signal?: AbortSignal,
): Promise<CachedFile | null> {
  const cache = mediaCacheOf(app);
  if (app.store.library.get(itemId) !== undefined) {
    try {
      const opened = await openLibraryItem({
        store: app.store,
        cache,
        itemId,
        canFetch: () => app.engine !== null,
        ...(signal ? { signal } : {}),
      });
      return opened.file;
    } catch {
      // Not an image, the network down, signed out: the window shows its placeholder.
      return null;
    }
  }
  const hit = cache.cached(itemId);
  if (hit !== null || app.engine === null) return hit;
  try {
    return await fetchImage(app, cache, itemId, signal);
  } catch {
    // Not an image, gone from the mirror, the network down: the window shows its placeholder.
    return null;
  }
}

async function fetchImage(
  app: MediaHost,
  cache: MediaCache,
  imageId: string,
  signal: AbortSignal | undefined,
): Promise<CachedFile | null> {
  const engine = app.requireEngine();
  const image = await engine.client.getImage(imageId, signal ? { signal } : {});
  if (image.status !== 'completed' || !image.imageUrl) return null;
  const safeId = imageId.replace(/[^A-Za-z0-9-]/g, '_');
  const relPath = `images/${safeId}`;
  await mkdir(path.join(cache.dir, 'images'), { recursive: true });
  const dest = path.join(cache.dir, relPath);
  const { bytes } = await engine.client.downloadToFile(
    image.imageUrl,
    dest,
    signal ? { signal } : {},
  );
  const type = await fileTypeFromFile(dest);
  app.store.mediaCache.put({ itemId: imageId, relPath, bytes, mimeType: type?.mime ?? null });
  await cache.enforceCap(imageId);
  return cache.cached(imageId);
}

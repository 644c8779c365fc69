// Offline copies of Library images, videos and audio in the data dir, capped in size: when a new file
// pushes the total over the cap (a setting), the least recently viewed go first.
// A file is written completely (the downloader writes `.part` and renames) before its
// row exists; reconcile() removes what a crash left between the two.
import { mkdirSync, promises as fs, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Store } from '../store/index.ts';
import { mediaCacheMaxBytesSetting } from '../store/index.ts';
import { MirrorError } from './mirror-error.ts';

/** Fetches url into dest (complete or not at all); the API client's downloadToFile fits. */
export type DownloadFile = (
  url: string,
  dest: string,
  options: { signal?: AbortSignal; expectedSize?: number },
) => Promise<{ bytes: number }>;

/** The one media cache of a data dir: the window's thumbnails and `library open` share it. */
export const MEDIA_CACHE_DIR = 'media-cache';

export function mediaCacheDir(dataDir: string): string {
  return join(dataDir, MEDIA_CACHE_DIR);
}

export interface CachedFile {
  path: string;
  bytes: number;
  mimeType: string | null;
}

export interface MediaCacheOptions {
  store: Store;
  /** The cache folder, e.g. <data dir>/media-cache. */
  dir: string;
  download: DownloadFile;
}

/** What the window shows or plays from the cache (a type the service adds later is not). */
const CACHEABLE = new Set(['image', 'video', 'audio']);

export class MediaCache {
  readonly dir: string;
  private readonly store: Store;
  private readonly download: DownloadFile;
  private readonly inFlight = new Map<string, Promise<CachedFile>>();

  constructor(options: MediaCacheOptions) {
    this.store = options.store;
    this.dir = options.dir;
    this.download = options.download;
    mkdirSync(this.dir, { recursive: true });
  }

  /** The cached file of an item, without any request (offline); marks it recently viewed. */
  cached(itemId: string): CachedFile | null {
    const entry = this.store.mediaCache.get(itemId);
    if (entry === undefined) return null;
    const path = join(this.dir, entry.relPath);
    try {
      statSync(path);
    } catch {
      this.store.mediaCache.remove(itemId); // deleted behind our back
      return null;
    }
    this.store.mediaCache.touch(itemId);
    return { path, bytes: entry.bytes, mimeType: entry.mimeType };
  }

  /** The item's image, from the cache or downloaded into it. */
  async get(itemId: string, options: { signal?: AbortSignal } = {}): Promise<CachedFile> {
    const hit = this.cached(itemId);
    if (hit !== null) return hit;
    let pending = this.inFlight.get(itemId);
    if (pending === undefined) {
      pending = this.fetchInto(itemId, options.signal).finally(() => this.inFlight.delete(itemId));
      this.inFlight.set(itemId, pending);
    }
    return pending;
  }

  usage(): { bytes: number; capBytes: number } {
    return {
      bytes: this.store.mediaCache.totalBytes(),
      capBytes: this.store.settings.read(mediaCacheMaxBytesSetting),
    };
  }

  /** Evicts least recently viewed files until the total fits the cap; returns how many went. */
  async enforceCap(keep?: string): Promise<number> {
    const cap = this.store.settings.read(mediaCacheMaxBytesSetting);
    let total = this.store.mediaCache.totalBytes();
    let evicted = 0;
    while (total > cap) {
      const victims = this.store.mediaCache.oldest(32).filter((entry) => entry.itemId !== keep);
      if (victims.length === 0) break;
      for (const victim of victims) {
        if (total <= cap) break;
        // Row first: a crash after it leaves an orphan file (reconcile removes it), never a row without a file.
        this.store.mediaCache.remove(victim.itemId);
        await fs.rm(join(this.dir, victim.relPath), { force: true });
        total -= victim.bytes;
        evicted++;
      }
    }
    return evicted;
  }

  /** After a crash: files without a row and rows without a file are removed. */
  async reconcile(): Promise<{ orphanFiles: number; missingFiles: number }> {
    const known = new Map(this.store.mediaCache.all().map((entry) => [entry.relPath, entry]));
    let orphanFiles = 0;
    const present = new Set<string>();
    for (const entry of await fs.readdir(this.dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const rel = relative(this.dir, join(entry.parentPath, entry.name)).split(sep).join('/');
      if (known.has(rel)) present.add(rel);
      else {
        await fs.rm(join(this.dir, rel), { force: true });
        orphanFiles++;
      }
    }
    let missingFiles = 0;
    for (const [rel, entry] of known) {
      if (present.has(rel)) continue;
      this.store.mediaCache.remove(entry.itemId);
      missingFiles++;
    }
    return { orphanFiles, missingFiles };
  }

  private async fetchInto(itemId: string, signal: AbortSignal | undefined): Promise<CachedFile> {
    const item = this.store.library.get(itemId);
    if (item === undefined)
      throw new MirrorError('ITEM_NOT_FOUND', `Library item ${itemId} is not in the mirror.`);
    if (!CACHEABLE.has(item.type) || item.url === null) {
      throw new MirrorError(
        'NOT_CACHEABLE',
        `Library item ${itemId} (${item.type}) ${item.url === null ? 'has no URL' : 'is not an image, a video or audio'}; only those are cached.`,
      );
    }
    // Two-level fan-out keeps directories small; the name is the item ID (a UUID from the service).
    const safeId = itemId.replace(/[^A-Za-z0-9-]/g, '_');
    const relPath = `${safeId.slice(0, 2)}/${safeId}`;
    const path = join(this.dir, relPath);
    await fs.mkdir(join(this.dir, safeId.slice(0, 2)), { recursive: true });
    const { bytes } = await this.download(item.url, path, {
      ...(signal === undefined ? {} : { signal }),
      ...(item.fileSize === null ? {} : { expectedSize: item.fileSize }),
    });
    this.store.mediaCache.put({ itemId, relPath, bytes, mimeType: item.mimeType });
    await this.enforceCap(itemId);
    return { path, bytes, mimeType: item.mimeType };
  }
}

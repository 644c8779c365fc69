// Opening a Library item, the one use case both faces call (`brand-sync library open`, the
// window's media and its drags): the item is found in the mirror, its file is taken from the
// media cache or fetched into it when Brand Sync can, and the path comes back with the name
// the item goes by. The refusals are typed, with codes, in the engine's words.
import { isApiError } from '../api/index.ts';
import { CodedError } from '../core/coded-error.ts';
import type { Store } from '../store/index.ts';
import { libraryItemName } from '../views/library-item-name.ts';
import type { CachedFile, MediaCache } from './media-cache.ts';

export type OpenItemErrorCode =
  /** The mirror holds no such item (or not in this brand's Library). */
  | 'ITEM_NOT_FOUND'
  /** Never fetched to this computer, and it cannot be fetched now. */
  | 'NOT_CACHED';

export class OpenItemError extends CodedError<OpenItemErrorCode> {
  /** Why a file not cached could not be fetched: no service or key, or no answer. */
  readonly reason: 'signed-out' | 'unreachable' | null;
  readonly retryable: boolean;
  constructor(
    code: OpenItemErrorCode,
    message: string,
    reason: OpenItemError['reason'] = null,
    cause?: unknown,
  ) {
    super(code, message);
    this.reason = reason;
    this.retryable = reason === 'unreachable';
    if (cause !== undefined) this.cause = cause;
  }
}

export interface OpenLibraryItemOptions {
  store: Store;
  cache: MediaCache;
  itemId: string;
  /** When given, the item must be in this brand's Library. */
  brandId?: string;
  /** Whether a file not cached can be fetched now (a service and a key); asked only then. */
  canFetch: () => boolean;
  signal?: AbortSignal;
}

export interface OpenedLibraryItem {
  itemId: string;
  brandId: string;
  /** What the item's file is called outside the cache (which names files by item ID). */
  name: string;
  file: CachedFile;
}

/**
 * The item's file, from the cache (offline) or fetched into it. A refusal of the cache itself
 * (not an image, a video or audio) is its MirrorError; any other service answer its ApiError.
 */
export async function openLibraryItem(options: OpenLibraryItemOptions): Promise<OpenedLibraryItem> {
  const { store, cache, itemId, signal } = options;
  const item = store.library.get(itemId);
  if (item === undefined || (options.brandId !== undefined && item.brandId !== options.brandId)) {
    throw new OpenItemError(
      'ITEM_NOT_FOUND',
      `The Library ${options.brandId === undefined ? '' : 'of this brand '}has no item ${itemId}.`,
    );
  }
  const opened = (file: CachedFile): OpenedLibraryItem => ({
    itemId,
    brandId: item.brandId,
    name: libraryItemName(item),
    file,
  });
  const hit = cache.cached(itemId);
  if (hit !== null) return opened(hit);
  const never = `Library item ${itemId} was never fetched to this computer`;
  if (!options.canFetch()) {
    throw new OpenItemError(
      'NOT_CACHED',
      `${never}, and Brand Sync has no service or key to fetch it now: sign in, then open it again.`,
      'signed-out',
    );
  }
  try {
    return opened(await cache.get(itemId, signal ? { signal } : {}));
  } catch (error) {
    if (isApiError(error) && (error.kind === 'network' || error.kind === 'server')) {
      throw new OpenItemError(
        'NOT_CACHED',
        `${never}, and the service cannot be reached to fetch it now (${error.message}). Try again when online.`,
        'unreachable',
        error,
      );
    }
    throw error;
  }
}

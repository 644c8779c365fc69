// `library open BRAND ITEM [--json]`: the path of a Library item's file in the media cache
// (the one the window's thumbnails use, under its size cap), fetched into it first when it
// is not there and the service can be reached. Offline, a file never fetched gets a clear
// answer (exit 1), never a guess.
import type { Command } from 'commander';
import { action, type CliDeps } from '../action.ts';
import type { CliContext } from '../context.ts';
import { CommandFailure, UsageError } from '../output.ts';
import { lookupIn } from '../resolve.ts';
import { isApiError } from '../../engine/api/index.ts';
import { MediaCache, mediaCacheDir, MirrorError } from '../../engine/library/index.ts';
import { openStore } from '../../engine/store/index.ts';

export function registerLibraryOpen(library: Command, deps: CliDeps): void {
  library
    .command('open')
    .description("print the path of a Library item's file (fetched into the cache when online)")
    .argument('<brand>', 'the brand ID, the name of its folder, or its name')
    .argument('<item>', 'the Library item ID (as library list shows it)')
    .option('--json', 'print one JSON document')
    .action(action(deps, openItem));
}

async function openItem(ctx: CliContext, command: Command): Promise<void> {
  const [brandArg, itemId] = command.processedArgs as [string, string];
  const store = openStore({ dataDir: ctx.config.dataDir });
  try {
    const brandId = lookupIn(store, brandArg);
    const item = store.library.get(itemId);
    if (item === undefined || item.brandId !== brandId) {
      throw new UsageError(
        `the Library of this brand has no item ${itemId} (see brand-sync library list ${brandArg}).`,
      );
    }
    const cache = new MediaCache({
      store,
      dir: mediaCacheDir(ctx.config.dataDir),
      download: (url, dest, options) => ctx.client().downloadToFile(url, dest, options),
    });
    const file = cache.cached(itemId) ?? (await fetchInto(ctx, cache, itemId));
    ctx.output.result({ itemId, brandId, ...file }, () => file.path);
  } finally {
    store.close();
  }
}

async function fetchInto(ctx: CliContext, cache: MediaCache, itemId: string) {
  const never = `Library item ${itemId} was never fetched to this computer`;
  let signedIn = true;
  try {
    ctx.client();
  } catch {
    signedIn = false;
  }
  if (!signedIn) {
    throw new CommandFailure(
      'NOT_CACHED',
      `${never}, and Brand Sync has no service or key to fetch it now: sign in (brand-sync login), then open it again.`,
    );
  }
  try {
    return await cache.get(itemId, { signal: ctx.signal });
  } catch (error) {
    if (isApiError(error) && (error.kind === 'network' || error.kind === 'server')) {
      throw new CommandFailure(
        'NOT_CACHED',
        `${never}, and the service cannot be reached to fetch it now (${error.message}). Try again when online.`,
      );
    }
    if (error instanceof MirrorError) throw new CommandFailure(error.code, error.message);
    throw error;
  }
}

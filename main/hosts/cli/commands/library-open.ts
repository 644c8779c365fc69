// `library open BRAND ITEM [--json]`: the path of a Library item's file in the media cache
// (the one the window's thumbnails use, under its size cap), fetched into it first when it
// is not there and the service can be reached (the engine's openLibraryItem). Offline, a
// file never fetched gets a clear answer (exit 1), never a guess.
import type { Command } from 'commander';
import { action, type CliDeps } from '../action.ts';
import type { CliContext } from '../context.ts';
import { CommandFailure, UsageError } from '../output.ts';
import { lookupIn } from '../resolve.ts';
import { MediaCache, mediaCacheDir, MirrorError } from '../../../engine/library/index.ts';
import { openLibraryItem, OpenItemError } from '../../../engine/library/open-library-item.ts';
import { openStore } from '../../../engine/store/index.ts';

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
    const cache = new MediaCache({
      store,
      dir: mediaCacheDir(ctx.config.dataDir),
      download: (url, dest, options) => ctx.client().downloadToFile(url, dest, options),
    });
    let opened;
    try {
      opened = await openLibraryItem({
        store,
        cache,
        itemId,
        brandId,
        canFetch: () => signedIn(ctx),
        signal: ctx.signal,
      });
    } catch (error) {
      throw cliFailure(error, itemId, brandArg);
    }
    const { file } = opened;
    ctx.output.result({ itemId, brandId, ...file }, () => file.path);
  } finally {
    store.close();
  }
}

/** Whether a service and a key are there to fetch with (the client is made once, lazily). */
function signedIn(ctx: CliContext): boolean {
  try {
    ctx.client();
    return true;
  } catch {
    return false;
  }
}

/**
 * The engine's refusals as this command has always printed them: an unknown item is bad usage
 * naming the command that lists them, and a signed-out cache miss names `brand-sync login`.
 */
function cliFailure(error: unknown, itemId: string, brandArg: string): unknown {
  if (error instanceof OpenItemError) {
    if (error.code === 'ITEM_NOT_FOUND') {
      return new UsageError(
        `the Library of this brand has no item ${itemId} (see brand-sync library list ${brandArg}).`,
      );
    }
    if (error.reason === 'signed-out') {
      return new CommandFailure(
        'NOT_CACHED',
        `Library item ${itemId} was never fetched to this computer, and Brand Sync has no service or key to fetch it now: sign in (brand-sync login), then open it again.`,
      );
    }
    return new CommandFailure(error.code, error.message);
  }
  if (error instanceof MirrorError) return new CommandFailure(error.code, error.message);
  return error;
}

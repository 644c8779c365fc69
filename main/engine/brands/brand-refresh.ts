// The brand listing: every brand the service has is stored and gets its folder under the
// sync root (found by marker, so a folder the user renamed keeps its link). A brand gone
// from the service keeps its folder, and the user is told.
import { z } from 'zod';
import type { ApiClient } from '../api/index.ts';
import type { JobQueue, TypedEmitter } from '../queue/index.ts';
import type { Brand, BrandRecordInput, Store } from '../store/index.ts';
import { brandDisplayName } from '../store/index.ts';
import { withFolderMaking } from '../folder-parts/brand-folders.ts';
import { discoverLinked, linkBrandFolder, type FolderLinkDeps } from './brand-folder-link.ts';
import type { EngineEvents } from '../core/engine-events.ts';

export const refreshBrandsKind = 'refresh-brands';

export interface BrandRefreshDeps {
  store: Store;
  client: ApiClient;
  queue: JobQueue;
  events: TypedEmitter<EngineEvents>;
  root: string;
}

export function registerBrandRefresh(deps: BrandRefreshDeps) {
  const { store, client, events, root } = deps;
  return deps.queue.register(refreshBrandsKind, {
    payload: z.object({ periodic: z.boolean().optional() }),
    concurrency: 1,
    async run(job, ctx) {
      const before = new Map(store.brands.list().map((b) => [b.id, b]));
      const records: BrandRecordInput[] = [];
      for await (const record of client.brands({}, { signal: ctx.signal })) records.push(record);
      const listed = records.map((record) => record.id);
      // The whole listing in one commit: one fsync, not one a brand, and a failed write keeps
      // none of it (the job runs again) rather than the brands before it.
      const gone = store.transaction(() => {
        for (const record of records) store.brands.upsertFromService(record);
        const deleted = store.brands.markMissingAsDeleted(listed);
        store.syncState.markSynced('brands', '');
        return deleted;
      });
      if (gone > 0) {
        for (const id of before.keys()) {
          if (listed.includes(id)) continue;
          const brand = store.brands.get(id);
          if (brand === undefined || before.get(id)?.deletedRemotely) continue;
          events.emit('notice', {
            level: 'warn',
            code: 'BRAND_DELETED_REMOTELY',
            brandId: id,
            message: `Brand "${brandDisplayName(brand)}" no longer exists on the service; its folder${brand.folderName ? ` "${brand.folderName}"` : ''} was left as it is.`,
          });
        }
      }
      const brands = listed.map((id) => store.brands.get(id)).filter((b) => b !== undefined);
      const folders = await linkFolders({ store, root, events }, brands);
      events.emit('brands:refreshed', {
        brands,
        folders,
        reason: job.payload.periodic === true ? 'periodic' : 'reconcile',
      });
      return { brands: brands.length, deleted: gone };
    },
  });
}

/** Every listed brand gets its folder; returns brand ID → folder name. */
function linkFolders(deps: FolderLinkDeps, brands: readonly Brand[]): Promise<Map<string, string>> {
  return withFolderMaking(deps.root, async () => {
    const discovery = await discoverLinked(deps);
    for (const duplicate of discovery.duplicates) {
      deps.events.emit('notice', {
        level: 'warn',
        code: 'DUPLICATE_BRAND_FOLDER',
        brandId: duplicate.brandId,
        message: duplicate.message,
      });
    }
    const folders = new Map<string, string>();
    for (const brand of brands) {
      folders.set(brand.id, (await linkBrandFolder(deps, brand, discovery)).dirName);
    }
    return folders;
  });
}

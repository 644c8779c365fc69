// A brand created from a window is followed until it settles (ready or failed), so that the
// window shows the end of the creation when it happens, not at the next brand listing minutes
// later. Not a queue job: `sync --once` must never wait for an analysis; the listing catches
// up anyway if this follow is cut short (a restart, sign-out).
import { isBrandSettled, type ApiClient } from '../api/index.ts';
import type { EngineEvents } from '../engine-events.ts';
import type { TypedEmitter } from '../queue/index.ts';
import type { Store } from '../store/index.ts';

export interface FollowBrandDeps {
  client: ApiClient;
  store: Store;
  events: TypedEmitter<EngineEvents>;
}

export async function followBrand(
  deps: FollowBrandDeps,
  brandId: string,
  signal: AbortSignal,
): Promise<void> {
  let brand = await deps.client.getBrand(brandId, { signal });
  while (!isBrandSettled(brand)) {
    brand = await deps.client.waitForBrand(brandId, { signal });
  }
  const stored = deps.store.brands.upsertFromService(brand);
  deps.events.emit('brand:updated', { brand: stored });
  if (brand.status === 'ready')
    deps.events.emit('brand:skill-changed', { brandId, reason: 'created' });
}

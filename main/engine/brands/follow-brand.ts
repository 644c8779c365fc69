// Brands the service is analysing are followed until it settles them (ready or failed), with
// its long poll: the window shows the end when it happens, not at the next brand listing
// minutes later, and a brand that becomes ready gets its Brand Skill at once
// (`brand:skill-changed`). Not a queue job: `sync --once` must never wait for an analysis;
// the listing catches up anyway if a follow is cut short (a restart, sign-out). Only a
// started engine (`run`, the window) follows: a one-shot command does not.
import type { Brand as ServiceBrand } from '../api/index.ts';
import type { EngineFeature, EngineParts, FeatureFactory } from '../core/engine.ts';
import { Follower, queueConnection } from '../follow/follower.ts';
import type { Brand } from '../store/index.ts';

export const BRAND_FOLLOW_FEATURE = 'brandFollow';

/** Ready and failed end an analysis; any other status (known or not) is still running. */
export function isBrandAnalysisOver(status: string | null): boolean {
  return status === null || status === 'ready' || status === 'failed';
}

export const brandFollowFeature: FeatureFactory = (parts) => createBrandFollow(parts);

export interface BrandFollowFeature extends EngineFeature {
  /** Follows one brand now (a creation from the window), started or not. */
  follow(brandId: string): void;
}

function createBrandFollow(parts: EngineParts): BrandFollowFeature {
  const { store, client, events } = parts;
  const follower = new Follower({ connection: queueConnection(parts.queue) });
  let started = false;

  const follow = (brandId: string): void => {
    void follower.follow<ServiceBrand>({
      key: `brand:${brandId}`,
      longPoll: true,
      look: ({ wait, signal }) => client.getBrand(brandId, { wait, signal }),
      settled: (brand) => isBrandAnalysisOver(brand.status),
      stateOf: (brand) => `${brand.status}:${String(brand.skillId ?? '')}`,
      changed: (brand, previous) => {
        const before = store.brands.get(brandId);
        const stored = store.brands.upsertFromService(brand);
        if (previous === null && before?.status === stored.status) return;
        events.emit('brand:updated', { brand: stored });
        if (brand.status === 'ready') {
          events.emit('brand:skill-changed', { brandId, reason: 'ready' });
        }
      },
      gone: (code) => {
        if (code !== 'BRAND_NOT_FOUND') return;
        const known = store.brands.get(brandId);
        if (known === undefined || known.deletedRemotely) return;
        store.brands.markDeletedRemotely(brandId);
        const gone = store.brands.get(brandId);
        if (gone !== undefined) events.emit('brand:updated', { brand: gone });
      },
    });
  };
  const followPending = (brands: readonly Brand[]): void => {
    if (!started) return;
    for (const brand of brands) {
      if (!brand.deletedRemotely && !isBrandAnalysisOver(brand.status)) follow(brand.id);
    }
  };
  const offs = [
    events.on('brands:refreshed', ({ brands }) => followPending(brands)),
    events.on('brand:updated', ({ brand }) => followPending([brand])),
  ];

  return {
    name: BRAND_FOLLOW_FEATURE,
    follow,
    start() {
      started = true;
      followPending(store.brands.list());
    },
    stop() {
      started = false;
      follower.stop();
      for (const off of offs) off();
    },
  };
}

// Brand Edits in the sync pass: after every brand listing, each brand's edits are listed
// into the store (one job per brand), so the window and `status` show what waits for
// approval. Listing edits is an assumed endpoint (docs/service.md): where the service lacks it,
// the feature hides itself, says so once, and looks again only a day later.
import { z } from 'zod';
import { isApiError, type BrandEdit } from '../api/index.ts';
import { Follower, queueConnection } from '../follow/follower.ts';
import type { EngineFeature, EngineParts, FeatureFactory } from '../core/engine.ts';
import { brandDisplayName, defineSetting } from '../store/index.ts';
import { EDITS_UNAVAILABLE_MESSAGE, refreshEdits } from './edit-actions.ts';

export const refreshEditsKind = 'edits.refresh';

export const RefreshEditsPayload = z.object({ brandId: z.string().min(1) });

export interface RefreshEditsResult {
  brandId: string;
  /** false: the service has no edits endpoint (nothing was stored). */
  available: boolean;
  edits: number;
  awaitingApproval: number;
  inputRequired: number;
}

/** When the service last answered that it has no edits endpoint (null: it has one). */
export const editsUnavailableSinceSetting = defineSetting(
  'edits.unavailableSince',
  z.number().int().nullable(),
  null,
  'When the service last said it offers no list of Brand Edits; the listing is tried again a day later.',
);

const RECHECK_MS = 24 * 60 * 60 * 1000;

/**
 * An edit in these states moves on the service's side (preparing) or on an answer that may
 * come from anywhere (input_required): the running engine follows it until it leaves them.
 */
export const FOLLOWED_EDIT_STATES: readonly string[] = ['preparing', 'input_required'];

export function refreshEditsKey(brandId: string): { key: string; brandId: string } {
  return { key: `${refreshEditsKind}:${brandId}`, brandId };
}

export const brandEditsFeature: FeatureFactory = (parts) => createBrandEdits(parts);

function createBrandEdits(parts: EngineParts): EngineFeature {
  const { store, queue, events } = parts;
  const hidden = (): boolean => {
    const since = store.settings.read(editsUnavailableSinceSetting);
    return since !== null && parts.now() - since < RECHECK_MS;
  };
  const results = new Map<string, { at: number; result: RefreshEditsResult }>();
  const follower = new Follower({ connection: queueConnection(queue) });
  let started = false;
  // The interface offers no long poll for an edit: polled with backoff (seconds at first,
  // about a minute at most), one follow per edit.
  const follow = (brandId: string, editId: string): void => {
    void follower.follow<BrandEdit>({
      key: `edit:${brandId}:${editId}`,
      longPoll: false,
      look: ({ signal }) => parts.client.getEdit(brandId, editId, { signal }),
      settled: (edit) => !FOLLOWED_EDIT_STATES.includes(edit.status),
      stateOf: (edit) => `${edit.status}:${String(edit.updatedAt ?? '')}`,
      changed: (edit, previous) => {
        const stored = store.edits.get(brandId, editId);
        if (previous === null && stored?.status === edit.status) return;
        store.edits.upsert(brandId, edit);
        events.emit('edits:changed', { brandId });
        if (edit.status !== stored?.status) {
          const brand = store.brands.get(brandId);
          events.emit('notice', {
            level: 'info',
            code: 'BRAND_EDIT_UPDATED',
            brandId,
            message: `Brand Edit "${edit.changeSummary ?? editId}" of ${brand ? brandDisplayName(brand) : 'a brand'} is ${edit.status.replaceAll('_', ' ')} now.`,
          });
        }
      },
      gone: (code) => {
        if (code !== 'BRAND_EDIT_NOT_FOUND') return;
        const stored = store.edits.get(brandId, editId);
        if (stored === undefined) return;
        store.edits.upsert(brandId, { ...stored.raw, id: stored.id, status: 'discarded' });
        events.emit('edits:changed', { brandId });
      },
    });
  };
  const followPending = (brandId?: string): void => {
    if (!started || hidden()) return;
    const brands =
      brandId === undefined ? store.brands.list() : [store.brands.get(brandId)].filter((b) => !!b);
    for (const brand of brands) {
      if (brand === undefined || brand.deletedRemotely) continue;
      for (const edit of store.edits.list(brand.id)) {
        if (FOLLOWED_EDIT_STATES.includes(edit.status ?? '')) follow(brand.id, edit.id);
      }
    }
  };
  const handle = queue.register(refreshEditsKind, {
    payload: RefreshEditsPayload,
    concurrency: 2,
    maxAttempts: 4,
    async run(job, ctx): Promise<RefreshEditsResult> {
      const { brandId } = job.payload;
      const empty = { brandId, edits: 0, awaitingApproval: 0, inputRequired: 0 };
      if (hidden()) return { ...empty, available: false };
      try {
        const edits = await refreshEdits(parts, brandId, ctx.signal);
        if (store.settings.read(editsUnavailableSinceSetting) !== null) {
          store.settings.write(editsUnavailableSinceSetting, null);
        }
        return {
          brandId,
          available: true,
          edits: edits.length,
          awaitingApproval: edits.filter((e) => e.status === 'awaiting_approval').length,
          inputRequired: edits.filter((e) => e.status === 'input_required').length,
        };
      } catch (error) {
        if (isApiError(error) && error.featureUnavailable) {
          if (!hidden()) {
            store.settings.write(editsUnavailableSinceSetting, parts.now());
            events.emit('notice', {
              level: 'info',
              code: 'FEATURE_UNAVAILABLE',
              message: `${EDITS_UNAVAILABLE_MESSAGE} Brand Edits are hidden; Brand Sync looks again in a day.`,
            });
          }
          return { ...empty, available: false };
        }
        // Deleted meanwhile: the next listing marks it; nothing to list.
        if (isApiError(error) && error.code === 'BRAND_NOT_FOUND')
          return { ...empty, available: true };
        throw error;
      }
    },
  });
  const offs = [
    // Synchronous: the jobs exist before the listing's job ends, so a sync pass waits for them.
    events.on('brands:refreshed', ({ brands }) => {
      if (hidden()) return;
      for (const brand of brands) {
        if (brand.status === 'failed') continue;
        handle.enqueue({ brandId: brand.id }, refreshEditsKey(brand.id));
      }
    }),
    // An applied edit changes the list (its state, edits it made stale).
    events.on('brand:skill-changed', ({ brandId, reason }) => {
      if (reason === 'edit-applied' && !hidden()) {
        handle.enqueue({ brandId }, refreshEditsKey(brandId));
      }
    }),
    queue.events.on('job:done', ({ job }) => {
      if (job.kind === refreshEditsKind && job.result) {
        const result = job.result as RefreshEditsResult;
        results.set(result.brandId, { at: parts.now(), result });
        events.emit('edits:changed', { brandId: result.brandId });
      }
    }),
    // Answered, applied, discarded, listed: whatever now prepares or asks is followed.
    events.on('edits:changed', ({ brandId }) => followPending(brandId)),
  ];
  return {
    name: 'edits',
    start() {
      started = true;
      followPending();
    },
    stop() {
      started = false;
      follower.stop();
      for (const off of offs) off();
    },
    describe(job) {
      if (job.kind !== refreshEditsKind) return undefined;
      const brandId = (job.payload as { brandId?: string }).brandId ?? job.brandId ?? '';
      const brand = store.brands.get(brandId);
      return { area: 'Brand Edits', subject: brand ? brandDisplayName(brand) : brandId };
    },
    announce(job, feed) {
      if (job.kind !== refreshEditsKind || job.state !== 'done' || job.brandId === null) return;
      feed.push({ type: 'edits', brandId: job.brandId });
    },
    report(since) {
      const recent = [...results.values()].filter((r) => r.at >= since).map((r) => r.result);
      if (recent.length === 0) return { summary: [], brands: [] };
      if (recent.every((r) => !r.available)) {
        return {
          summary: ['Brand Edits: not offered by this service.'],
          available: false,
          brands: [],
        };
      }
      const waiting = recent.filter((r) => r.awaitingApproval + r.inputRequired > 0);
      const summary = waiting.map((r) => {
        const brand = store.brands.get(r.brandId);
        const name = brand ? brandDisplayName(brand) : r.brandId;
        const parts = [
          r.awaitingApproval > 0 ? `${r.awaitingApproval} awaiting approval` : '',
          r.inputRequired > 0 ? `${r.inputRequired} with a question` : '',
        ].filter(Boolean);
        return `Brand Edits of ${name}: ${parts.join(', ')} (brand-sync edits list ${r.brandId}).`;
      });
      return {
        summary: summary.length > 0 ? summary : ['Brand Edits: none waiting.'],
        available: true,
        brands: recent,
      };
    },
  };
}

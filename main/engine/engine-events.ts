// Events between the engine's features: one feature's finished work starts another's
// (a brand listed → its Library, folder and Brand Skill are synced) without either
// importing the other.
import type { Brand } from './store/index.ts';

export interface EngineEvents {
  /**
   * A complete brand listing was stored; `brands` are the ones the service still has.
   * `periodic`: the running engine's timer asked for it (watchers already cover known
   * folders), not a full reconcile.
   */
  'brands:refreshed': {
    brands: Brand[];
    folders: ReadonlyMap<string, string>;
    reason: 'reconcile' | 'periodic';
  };
  /** One brand's record changed outside a listing (a followed creation settled). */
  'brand:updated': { brand: Brand };
  /** A brand's active Skill may have changed (ready, logo settled, edit applied). */
  'brand:skill-changed': { brandId: string; reason: string };
  /** Something the user should see in the activity list. */
  notice: { level: 'info' | 'warn' | 'error'; code: string; message: string; brandId?: string };
}

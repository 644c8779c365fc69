// Events between the engine's features: one feature's finished work starts another's
// (a brand listed → its Library, folder and Brand Skill are synced) without either
// importing the other.
import type { ImageEditState } from '../images/image-edit-state.ts';
import type { Brand } from '../store/index.ts';

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
  /** A brand's Brand Edits changed in the store (followed, applied, discarded, answered). */
  'edits:changed': { brandId: string };
  /** An image edit the engine follows moved (started, running, completed, failed). */
  'image:updated': { edit: ImageEditState };
  /** A stored credit balance changed (a spend, a refund, the periodic check). */
  'credits:changed': { workspaceId: string | null | undefined };
  /** Something new is in a brand's Library on the service (an edit's result): mirror it soon. */
  'library:refresh-wanted': { brandId: string };
  /** Items came into a brand's Library mirror or left it (IDs; empty when not known one by one). */
  'library:changed': { brandId: string; added: string[]; removed: string[]; changed: number };
  /** Something the user should see in the activity list. */
  notice: { level: 'info' | 'warn' | 'error'; code: string; message: string; brandId?: string };
}

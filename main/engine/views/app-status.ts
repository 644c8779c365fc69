// The window's status: brands with what a card shows (status, failure advice, Brand Skill on
// disk, pending uploads and edits), the queue, the connection and the credits. From the
// store and the running queue only: it answers offline.
import type {
  BrandDoc,
  BrandSummary,
  CreditDoc,
  QueueDoc,
  StatusDoc,
} from '../../../contract/index.ts';
import { brandFailureAdvice } from '../brands/index.ts';
import { CREDITS_SPENT } from '../images/image-edit.ts';
import { WAITING_EDIT_STATES } from '../edits/edit-doc.ts';
import type { Engine } from '../core/engine.ts';
import { plainTransportMessage } from '../api/messages.ts';
import { brandDisplayName, queuePausedSetting, type Brand, type Store } from '../store/index.ts';
import { readSkillProfile } from './skill-profile.ts';
import { liveSkillDir } from './skill-view.ts';
import { iso } from './status.ts';
import path from 'node:path';

export interface StatusSources {
  store: Store;
  engine: Engine | null;
  root: string;
}

export function brandSummary(store: Store, root: string, brand: Brand): BrandSummary {
  const files = store.files.countsByState(brand.id);
  const installed = store.exports.latestInstalled(brand.id);
  // The edits that wait for the user, as the Brand Edits tab marks them (one being prepared
  // waits for the service, not for them).
  const pendingEdits = store.edits
    .list(brand.id)
    .filter((edit) => WAITING_EDIT_STATES.includes(edit.status ?? '')).length;
  const library = store.syncState.get('library', brand.id);
  const failure =
    brand.status === 'failed' || brand.failureCode !== null
      ? (() => {
          const advice = brandFailureAdvice({
            code: brand.failureCode,
            message: brand.failureMessage,
          });
          return { code: brand.failureCode, message: brand.failureMessage, advice: advice.advice };
        })()
      : null;
  return {
    id: brand.id,
    name: brandDisplayName(brand),
    status: brand.status,
    failure,
    folder: brand.folderName,
    folderPath: brand.folderName === null ? null : path.join(root, brand.folderName),
    deletedRemotely: brand.deletedRemotely,
    workspaceId: brand.workspaceId,
    logo: logoRef(store, root, brand, installed),
    skill: {
      activeSkillId: brand.skillId,
      installedSkillId: installed?.skillId ?? null,
      installedAt: iso(installed?.installedAt),
    },
    files,
    pendingUploads: (files.waiting ?? 0) + (files.uploading ?? 0),
    pendingEdits,
    library: { items: store.library.count(brand.id), lastRefreshAt: iso(library.lastRefreshAt) },
    lastSyncedAt: iso(brand.lastSyncedAt),
  };
}

/** The logo of the installed Brand Skill, named by its profile; null until one is on disk. */
function logoRef(
  store: Store,
  root: string,
  brand: Brand,
  installed: { skillId: string | null } | undefined,
): BrandSummary['logo'] {
  const live = installed === undefined ? null : liveSkillDir(store, root, brand);
  if (live === null) return null;
  const logoPath = readSkillProfile(live, installed?.skillId ?? null)?.logoPath ?? null;
  return logoPath === null ? null : { area: 'skill', brandId: brand.id, path: logoPath };
}

export function brandDetails(store: Store, root: string, brand: Brand): BrandDoc {
  const raw = (brand.raw ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const list = (value: unknown) =>
    Array.isArray(value)
      ? value
          .map((v) =>
            typeof v === 'string'
              ? v
              : text(
                  (v as { hex?: unknown; family?: unknown })?.hex ??
                    (v as { family?: unknown })?.family,
                ),
          )
          .filter((v): v is string => v !== null)
      : [];
  return {
    ...brandSummary(store, root, brand),
    url: text(raw.url),
    summary: text(raw.summary),
    colors: list(raw.colors),
    fonts: list(raw.fonts),
    workspaceName: text(raw.workspaceName),
    createdAt: text(raw.createdAt),
  };
}

export function creditDocs(store: Store): CreditDoc[] {
  const workspaces = new Map(store.workspaces.list().map((w) => [w.key, w]));
  return store.workspaces.allCredits().map((c) => {
    const workspace = workspaces.get(c.workspaceKey);
    const personal = c.workspaceId === null || workspace?.isPersonal === true;
    return {
      workspaceId: c.workspaceId,
      name: workspace?.name ?? (personal ? 'Personal' : null),
      personal,
      balance: c.balance,
      unlimited: c.unlimited,
      syncedAt: iso(c.syncedAt),
    };
  });
}

/** Charges recorded by the engine (image edits), newest first, from the activity log. */
export function recentSpending(store: Store, limit = 50) {
  return store.activity
    .list({ minLevel: 'info', limit: 1000 })
    .filter((entry) => entry.code === CREDITS_SPENT)
    .slice(0, limit)
    .map((entry) => {
      const data = (entry.data ?? {}) as {
        action?: unknown;
        cost?: unknown;
        workspaceId?: unknown;
      };
      return {
        at: iso(entry.at),
        action: typeof data.action === 'string' ? data.action : 'charge',
        cost: typeof data.cost === 'number' ? data.cost : 0,
        workspaceId: typeof data.workspaceId === 'string' ? data.workspaceId : null,
        message: entry.message,
      };
    });
}

export function queueDoc(store: Store, engine: Engine | null): QueueDoc {
  const counts = store.jobs.countsByState();
  if (engine === null) {
    const paused = store.settings.read(queuePausedSetting);
    return {
      userPaused: paused,
      paused,
      conditions: [],
      rateLimitedUntil: null,
      running: 0,
      counts,
    };
  }
  const status = engine.queue.status();
  return {
    userPaused: status.userPaused,
    paused: status.paused,
    conditions: status.conditions.map((c) => ({
      name: c.name,
      code: c.code,
      message: plainTransportMessage(c.code, c.message),
      since: iso(c.since),
      nextProbeAt: iso(c.nextProbeAt),
    })),
    rateLimitedUntil: iso(status.rateLimitedUntil),
    running: status.runningJobs,
    counts,
  };
}

export function connectionDoc(engine: Engine | null): StatusDoc['connection'] {
  if (engine === null) return { online: null, since: null, message: null };
  const offline = engine.queue.status().conditions.find((c) => c.name === 'offline');
  if (offline) {
    const message = plainTransportMessage(offline.code, offline.message);
    return { online: false, since: iso(offline.since), message };
  }
  const brandsAt = engine.store.syncState.get('brands', '').lastRefreshAt;
  return { online: brandsAt === null ? null : true, since: iso(brandsAt), message: null };
}

export function appStatus({ store, engine, root }: StatusSources): StatusDoc {
  return {
    signedIn: engine !== null,
    brands: store.brands
      .list({ includeDeleted: true })
      .map((brand) => brandSummary(store, root, brand))
      .sort((a, b) => a.name.localeCompare(b.name)),
    brandsSyncedAt: iso(store.syncState.get('brands', '').lastRefreshAt),
    queue: queueDoc(store, engine),
    connection: connectionDoc(engine),
    credits: creditDocs(store),
    files: store.files.countsByState(),
    lastErrors: store.activity.list({ minLevel: 'error', limit: 5 }).map((e) => ({
      at: iso(e.at),
      code: e.code,
      message: e.message,
      brandId: e.brandId,
    })),
  };
}

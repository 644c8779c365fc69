// The export sync as an engine feature: every ready brand's latest Brand Skill on disk.
// Triggers: a listing that shows a ready brand whose Skill is not the installed one, a
// brand whose active Skill changed (logo settled, edit applied), the periodic check, and
// every reconcile. One job per brand (its dedupe key); a trigger that arrives while that
// brand's job already runs starts one more run after it, so a newer Skill is never missed.
import path from 'node:path';
import type { EngineFeature, EngineParts, FeatureFactory } from '../core/engine.ts';
import { brandDisplayName } from '../store/index.ts';
import type { Brand, JobRecord } from '../store/index.ts';
import { readInstalledSkill } from '../export-parts/skill-install.ts';
import {
  exportSyncKey,
  exportSyncKind,
  EXPORT_DOWNLOAD_PREFIX,
  registerExportSync,
  SKILL_FACT,
  type ExportJobOptions,
  type ExportSyncPayload,
  type ExportSyncResult,
} from './export-job.ts';
import { countsLine, OutcomeLog } from './outcome-log.ts';
import { recoverSkillFolders } from './recover-folders.ts';
import { exportCheckIntervalSetting, exportNextCheckSetting } from './settings.ts';
import { sweepDownloads } from './skill-delivery.ts';

export interface ExportSyncOptions extends ExportJobOptions {
  /** Period of the check of every ready brand (default: the setting `exports.checkIntervalMs`). */
  checkEveryMs?: number;
}

type Counted = 'installed' | 'unchanged' | 'unavailable' | 'failed';
const COUNTED: readonly Counted[] = ['installed', 'unchanged', 'unavailable', 'failed'];
const LABELS: Record<Counted, string> = {
  installed: 'installed',
  unchanged: 'unchanged',
  unavailable: 'without an exportable Skill yet',
  failed: 'failed',
};
// Triggers that follow the store's state anyway: a run already under way serves them.
const CATCH_ALL = new Set(['reconcile', 'periodic']);
/** A timer longer than this is set again when it fires (setTimeout's limit is ~24.8 days). */
const MAX_TIMER_MS = 60 * 60 * 1000;

function skillOf(job: JobRecord): string | null {
  const skillId = job.facts[SKILL_FACT];
  return typeof skillId === 'string' ? skillId : null;
}

export function exportSyncFeature(options: ExportSyncOptions = {}): FeatureFactory {
  return (parts) => createExportSync(parts, options);
}

/** The feature with its defaults, for `defaultFeatures`. */
export const exportSync: FeatureFactory = exportSyncFeature();

function createExportSync(parts: EngineParts, options: ExportSyncOptions): EngineFeature {
  const { store, queue, events } = parts;
  const handle = registerExportSync(parts, options);
  const outcomes = new OutcomeLog<Counted>();
  // Brand → the Skill a trigger wants that the running job may have missed (null: unknown,
  // the active Skill changed after the job may have asked for it).
  const runAgain = new Map<string, string | null>();
  let timer: NodeJS.Timeout | undefined;

  const enqueue = (brandId: string, reason: string, wanted: string | null = null): void => {
    const { job, created } = handle.enqueue({ brandId, reason }, exportSyncKey(brandId));
    if (!created && job.state === 'running' && !CATCH_ALL.has(reason)) {
      runAgain.set(brandId, runAgain.has(brandId) ? null : wanted);
    }
  };
  /**
   * Whether a catch-all check (a sync the person asked for, start-up, the periodic check)
   * should ask for an export. No request is wasted on a brand whose record names its active
   * Skill when that Skill is on disk. Where the record does not name it, only the service can
   * tell whether a newer one exists: every such check asks (the service reuses an existing
   * export, so this is one request per brand), or a newer Skill would never arrive.
   */
  const needsExport = async (brand: Brand): Promise<boolean> => {
    // What lies on disk now (a folder removed or emptied since is no Skill on disk).
    const onDisk =
      brand.folderName === null
        ? null
        : ((await readInstalledSkill(path.join(parts.root, brand.folderName)).catch(() => null))
            ?.skillId ?? null);
    if (onDisk === null) return true;
    return brand.skillId === null || brand.skillId !== onDisk;
  };
  const enqueueReady = async (reason: string): Promise<void> => {
    for (const brand of store.brands.list()) {
      if (brand.status === 'ready' && (await needsExport(brand))) enqueue(brand.id, reason);
    }
    // Every ready brand was looked at: the next periodic check is due a period from now.
    store.settings.write(exportNextCheckSetting, parts.now() + checkEvery());
  };
  const checkEvery = (): number =>
    options.checkEveryMs ?? store.settings.read(exportCheckIntervalSetting);
  const recoverAll = (): Promise<void> =>
    recoverSkillFolders(
      events,
      store.brands
        .list({ includeDeleted: true })
        .filter((b) => b.folderName !== null)
        .map((b) => ({ brandId: b.id, dir: path.join(parts.root, b.folderName as string) })),
    );
  /** A run ended having dealt with `skillId`: once more if a trigger wants another. */
  const finished = (brandId: string, skillId: string | null): void => {
    if (!runAgain.has(brandId)) return;
    const wanted = runAgain.get(brandId);
    runAgain.delete(brandId);
    if (wanted === null || wanted !== skillId) enqueue(brandId, 'changed-while-running');
  };

  const offs = [
    events.on('brands:refreshed', ({ brands }) => {
      // Synchronous on purpose: the jobs exist before the listing's job ends, so a sync
      // pass waiting for the queue to settle waits for them too.
      for (const brand of brands) {
        if (brand.status !== 'ready') continue;
        const installed = store.exports.latestInstalled(brand.id)?.skillId ?? null;
        if (installed === null || (brand.skillId !== null && brand.skillId !== installed)) {
          enqueue(brand.id, 'ready', brand.skillId);
        }
      }
    }),
    events.on('brand:skill-changed', ({ brandId, reason }) => enqueue(brandId, reason)),
    queue.events.on('job:done', ({ job }) => {
      if (job.kind !== exportSyncKind) return;
      const result = job.result as ExportSyncResult | null;
      if (result?.outcome)
        outcomes.add(job.startedAt ?? parts.now(), result.brandId, result.outcome);
      if (job.brandId !== null) finished(job.brandId, skillOf(job));
    }),
    queue.events.on('job:failed', ({ job }) => {
      if (job.kind !== exportSyncKind) return;
      outcomes.add(job.startedAt ?? parts.now(), job.brandId ?? '', 'failed');
      if (job.brandId !== null) finished(job.brandId, skillOf(job));
    }),
    queue.events.on('job:cancelled', ({ job }) => {
      if (job.kind === exportSyncKind && job.brandId !== null) runAgain.delete(job.brandId);
    }),
  ];
  const periodic = async (): Promise<void> => {
    try {
      await enqueueReady('periodic');
    } catch (error) {
      events.emit('notice', {
        level: 'warn',
        code: 'EXPORT_CHECK_FAILED',
        message: `The periodic Brand Skill check could not start: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  };
  /** The periodic check is due by the time kept in the database, across restarts and runs. */
  const isDue = (): boolean => {
    const next = store.settings.read(exportNextCheckSetting);
    return next === null || next <= parts.now();
  };
  /** In a running engine: wakes when the stored time comes (another process may move it). */
  const scheduleCheck = (): void => {
    clearTimeout(timer);
    const next = store.settings.read(exportNextCheckSetting);
    const wait = next === null ? 0 : Math.max(0, next - parts.now());
    timer = setTimeout(
      () => {
        timer = undefined;
        void (async () => {
          if (isDue()) await periodic();
          if (running) scheduleCheck();
        })();
      },
      Math.min(wait, MAX_TIMER_MS),
    );
    timer.unref();
  };
  let running = false;

  return {
    name: 'exports',
    async reconcile() {
      await recoverAll();
      await enqueueReady(isDue() ? 'periodic' : 'reconcile');
    },
    async start() {
      await recoverAll();
      // Best effort: a file that cannot be removed now is tried again at the next start.
      await sweepDownloads(store, parts.dataDir, exportSyncKind, EXPORT_DOWNLOAD_PREFIX).catch(
        () => undefined,
      );
      running = true;
      scheduleCheck();
    },
    stop() {
      running = false;
      clearTimeout(timer);
      timer = undefined;
      for (const off of offs) off();
    },
    describe(job) {
      if (job.kind !== exportSyncKind) return undefined;
      const brandId = (job.payload as Partial<ExportSyncPayload>).brandId ?? job.brandId ?? '';
      const brand = store.brands.get(brandId);
      return { area: 'Brand Skill', subject: brand ? brandDisplayName(brand) : brandId };
    },
    announce(job, feed) {
      const brandId = job.brandId;
      if (job.kind !== exportSyncKind || job.state !== 'done' || brandId === null) return;
      feed.push({ type: 'skill', brandId });
      if ((job.result as { outcome?: string } | null)?.outcome !== 'installed') return;
      const brand = store.brands.get(brandId);
      feed.push({
        type: 'notify',
        kind: 'skill-updated',
        title: `New Brand Skill for ${brand ? brandDisplayName(brand) : 'a brand'}`,
        message: 'The latest Brand Skill is unpacked in its folder.',
        brandId,
      });
    },
    report(since) {
      const counts = outcomes.count(since, COUNTED);
      return { ...counts, summary: [`Brand Skills: ${countsLine(counts, LABELS)}.`] };
    },
  };
}

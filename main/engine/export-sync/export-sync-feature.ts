// The export sync as an engine feature: every ready brand's latest Brand Skill on disk.
// Triggers: a listing that shows a ready brand whose Skill is not the installed one, a
// brand whose active Skill changed (logo settled, edit applied), the periodic check, and
// every reconcile. One job per brand (its dedupe key); a trigger that arrives while that
// brand's job already runs starts one more run after it, so a newer Skill is never missed.
import path from 'node:path';
import type { EngineFeature, EngineParts, FeatureFactory } from '../engine.ts';
import { brandDisplayName } from '../store/index.ts';
import type { Brand, JobRecord } from '../store/index.ts';
import { readInstalledSkill } from '../exports/skill-install.ts';
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
import { exportCheckIntervalSetting } from './settings.ts';
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
   * Whether a catch-all check (a reconcile, the periodic check) should ask for an export: no
   * request is wasted on a brand whose record names its active Skill when that Skill is on
   * disk; where the record does not name it, only the periodic check asks (an applied edit
   * and the user's request trigger their own export).
   */
  const needsExport = async (brand: Brand, reason: string): Promise<boolean> => {
    // What lies on disk now (a folder removed or emptied since is no Skill on disk).
    const onDisk =
      brand.folderName === null
        ? null
        : ((await readInstalledSkill(path.join(parts.root, brand.folderName)).catch(() => null))
            ?.skillId ?? null);
    if (onDisk === null) return true;
    if (brand.skillId !== null) return brand.skillId !== onDisk;
    return reason === 'periodic';
  };
  const enqueueReady = async (reason: string): Promise<void> => {
    for (const brand of store.brands.list()) {
      if (brand.status === 'ready' && (await needsExport(brand, reason))) enqueue(brand.id, reason);
    }
  };
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

  return {
    name: 'exports',
    async reconcile() {
      await recoverAll();
      await enqueueReady('reconcile');
    },
    async start() {
      await recoverAll();
      // Best effort: a file that cannot be removed now is tried again at the next start.
      await sweepDownloads(store, parts.dataDir, exportSyncKind, EXPORT_DOWNLOAD_PREFIX).catch(
        () => undefined,
      );
      const every = options.checkEveryMs ?? store.settings.read(exportCheckIntervalSetting);
      timer = setInterval(periodic, every);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
      for (const off of offs) off();
    },
    describe(job) {
      if (job.kind !== exportSyncKind) return undefined;
      const brandId = (job.payload as Partial<ExportSyncPayload>).brandId ?? job.brandId ?? '';
      const brand = store.brands.get(brandId);
      return { area: 'Brand Skill', subject: brand ? brandDisplayName(brand) : brandId };
    },
    report(since) {
      const counts = outcomes.count(since, COUNTED);
      return { ...counts, summary: [`Brand Skills: ${countsLine(counts, LABELS)}.`] };
    },
  };
}

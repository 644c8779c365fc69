// Beta Brand Skills as an engine feature: every tracked beta job is polled until completed,
// and its Skill stored in its brand folder; a reconcile picks up those still waiting.
import path from 'node:path';
import type { EngineFeature, EngineParts, FeatureFactory } from '../core/engine.ts';
import {
  countsLine,
  OutcomeLog,
  recoverSkillFolders,
  sweepDownloads,
} from '../export-sync/index.ts';
import {
  BETA_DOWNLOAD_PREFIX,
  brandSkillSyncKey,
  brandSkillSyncKind,
  registerBrandSkillSync,
  type BrandSkillJobOptions,
  type BrandSkillSyncPayload,
  type BrandSkillSyncResult,
} from './beta-skill-job.ts';
import { getTracked, listTracked, needsSync } from './tracked-skills.ts';

type Counted = 'installed' | 'unchanged' | 'failed';
const COUNTED: readonly Counted[] = ['installed', 'unchanged', 'failed'];

export function brandSkillsFeatureWith(options: BrandSkillJobOptions = {}): FeatureFactory {
  return (parts) => createBrandSkills(parts, options);
}

/** The feature with its defaults, for `defaultFeatures`. */
export const brandSkillsFeature: FeatureFactory = brandSkillsFeatureWith();

function createBrandSkills(parts: EngineParts, options: BrandSkillJobOptions): EngineFeature {
  const { store, queue } = parts;
  const handle = registerBrandSkillSync(parts, options);
  const outcomes = new OutcomeLog<Counted>();
  const recoverAll = (): Promise<void> =>
    recoverSkillFolders(
      parts.events,
      listTracked(store)
        .filter((s) => s.folderName !== null)
        .map((s) => ({
          brandId: s.brandId ?? s.id,
          dir: path.join(parts.root, s.folderName as string),
        })),
    );
  const offs = [
    queue.events.on('job:done', ({ job }) => {
      if (job.kind !== brandSkillSyncKind) return;
      const outcome = (job.result as BrandSkillSyncResult | null)?.outcome;
      if (outcome === 'installed' || outcome === 'unchanged') {
        outcomes.add(job.startedAt ?? parts.now(), job.key ?? '', outcome);
      }
    }),
    queue.events.on('job:failed', ({ job }) => {
      if (job.kind === brandSkillSyncKind)
        outcomes.add(job.startedAt ?? parts.now(), job.key ?? '', 'failed');
    }),
  ];
  return {
    name: 'brandSkills',
    async reconcile() {
      await recoverAll();
      for (const record of listTracked(store)) {
        if (needsSync(record)) handle.enqueue({ id: record.id }, brandSkillSyncKey(record.id));
      }
    },
    async start() {
      await recoverAll();
      await sweepDownloads(store, parts.dataDir, brandSkillSyncKind, BETA_DOWNLOAD_PREFIX).catch(
        () => undefined, // best effort: tried again at the next start
      );
    },
    stop() {
      for (const off of offs) off();
    },
    describe(job) {
      if (job.kind !== brandSkillSyncKind) return undefined;
      const id = (job.payload as Partial<BrandSkillSyncPayload>).id ?? '';
      return { area: 'beta Brand Skill', subject: getTracked(store, id)?.brandName ?? id };
    },
    report(since) {
      const counts = outcomes.count(since, COUNTED);
      const any = COUNTED.some((c) => counts[c] > 0);
      return {
        ...counts,
        summary: any ? [`Beta Brand Skills: ${countsLine(counts, {})}.`] : [],
      };
    },
  };
}

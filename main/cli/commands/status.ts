// `status [--json]`: what the engine knows, read from the local store only, so it answers
// with the service unreachable and without a key: brands with status and freshness, queue
// counts, what waits and why, file counts, credits, the last errors.
import type { Command } from 'commander';
import { action, type CliDeps } from '../action.ts';
import { fields, table } from '../output.ts';
import { openStore, brandDisplayName, queuePausedSetting } from '../../engine/store/index.ts';
import type { Store } from '../../engine/store/index.ts';
import { ago } from '../time-format.ts';

export function registerStatus(program: Command, deps: CliDeps): void {
  program
    .command('status')
    .description('brands with their status, queue and file counts, credits and the last errors')
    .option('--json', 'print one JSON document')
    .action(
      action(deps, async (ctx) => {
        const store = openStore({ dataDir: ctx.config.dataDir });
        try {
          const doc = statusDocument(store);
          ctx.output.result(doc, () => describeStatus(doc, store.now()));
        } finally {
          store.close();
        }
      }),
    );
}

export type StatusDocument = ReturnType<typeof statusDocument>;

export function statusDocument(store: Store) {
  const summary = store.statusSummary();
  const libraries = new Map(summary.freshness.libraries.map((l) => [l.brandId, l]));
  const workspaces = new Map(store.workspaces.list().map((w) => [w.key, w]));
  return {
    brands: store.brands.list({ includeDeleted: true }).map((b) => ({
      id: b.id,
      name: brandDisplayName(b),
      status: b.status,
      failure: b.failureCode ? { code: b.failureCode, message: b.failureMessage } : null,
      folder: b.folderName,
      deletedRemotely: b.deletedRemotely,
      skillId: b.skillId,
      installedSkillId: store.exports.latestInstalled(b.id)?.skillId ?? null,
      files: store.files.countsByState(b.id),
      library: {
        items: store.library.count(b.id, { removed: false }),
        lastRefreshAt: iso(libraries.get(b.id)?.lastRefreshAt),
      },
      lastSyncedAt: iso(b.lastSyncedAt),
    })),
    brandsSyncedAt: iso(summary.freshness.brandsSyncedAt),
    queue: { paused: store.settings.read(queuePausedSetting), jobs: summary.jobs },
    waiting: store.jobs.list({ state: 'retry-wait', limit: 20 }).map((job) => ({
      id: job.id,
      kind: job.kind,
      key: job.key,
      brandId: job.brandId,
      nextRunAt: iso(job.nextRunAt),
      reason: job.lastError ? { code: job.lastError.code, message: job.lastError.message } : null,
    })),
    files: summary.files,
    credits: store.workspaces.allCredits().map((c) => ({
      workspaceId: c.workspaceId,
      name: workspaces.get(c.workspaceKey)?.name ?? (c.workspaceId === null ? 'Personal' : null),
      balance: c.balance,
      unlimited: c.unlimited,
      syncedAt: iso(c.syncedAt),
    })),
    failedJobs: summary.recentFailures.map((job) => ({
      id: job.id,
      kind: job.kind,
      key: job.key,
      brandId: job.brandId,
      finishedAt: iso(job.finishedAt),
      error: job.lastError ? { code: job.lastError.code, message: job.lastError.message } : null,
    })),
    lastErrors: summary.recentErrors.map((e) => ({
      at: iso(e.at),
      code: e.code,
      message: e.message,
      brandId: e.brandId,
      path: e.path,
    })),
  };
}

function describeStatus(doc: StatusDocument, now: number): string[] {
  const lines: string[] = [];
  if (doc.brands.length === 0) {
    lines.push('No brands known yet: run `brand-sync sync --once` first.');
  } else {
    lines.push(`Brands (listed ${ago(doc.brandsSyncedAt, now)}):`);
    lines.push(
      ...table(
        ['NAME', 'STATUS', 'FOLDER', 'LIBRARY', 'FILES'],
        doc.brands.map((b) => [
          b.name,
          b.deletedRemotely ? 'deleted on the service' : (b.status ?? 'unknown'),
          b.folder ?? '-',
          `${b.library.items} items, ${ago(b.library.lastRefreshAt, now)}`,
          countLine(b.files) || '-',
        ]),
      ).map((l) => `  ${l}`),
    );
  }
  lines.push(
    ...fields([
      [
        'Queue',
        `${countLine(doc.queue.jobs) || 'empty'}${doc.queue.paused ? ' (paused by you)' : ''}`,
      ],
      ['Files', countLine(doc.files) || 'none indexed'],
      [
        'Credits',
        doc.credits
          .map(
            (c) =>
              `${c.name ?? c.workspaceId}: ${c.unlimited ? 'unlimited' : c.balance} (${ago(c.syncedAt, now)})`,
          )
          .join('; ') || 'unknown',
      ],
    ]),
  );
  if (doc.waiting.length > 0) {
    lines.push('Waiting to retry:');
    for (const w of doc.waiting) {
      lines.push(
        `  ${w.kind} ${w.key ?? `#${w.id}`}: ${w.reason ? `${w.reason.code}: ${w.reason.message}` : 'no reason recorded'} (${nextTry(w.nextRunAt, now)})`,
      );
    }
  }
  if (doc.lastErrors.length > 0) {
    lines.push('Last errors:');
    for (const e of doc.lastErrors) lines.push(`  ${ago(e.at, now)}: ${e.code}: ${e.message}`);
  }
  return lines;
}

function nextTry(at: string | null, now: number): string {
  return at === null || Date.parse(at) <= now ? 'due at the next sync' : `next try ${ago(at, now)}`;
}

/** "3 uploaded, 1 failed": the non-zero counts. */
function countLine(counts: Record<string, number>): string {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`)
    .join(', ');
}

function iso(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}

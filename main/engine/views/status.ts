// What `status` shows and the window's status: read from the local store only, so it answers
// with the service unreachable and without a key. The CLI prints this document (its --json
// is a contract); the bridge's status is built from the same parts.
import { plainTransportMessage } from '../api/messages.ts';
import { brandFailureAdvice } from '../brands/brand-failure.ts';
import { jobWords } from './job-words.ts';
import { brandDisplayName, queuePausedSetting } from '../store/index.ts';
import type { Store } from '../store/index.ts';

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
      failure: b.failureCode
        ? {
            code: b.failureCode,
            message: b.failureMessage,
            advice: brandFailureAdvice({ code: b.failureCode }).advice,
          }
        : null,
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
      /** The job in words ("upload Acme/a.png"). */
      subject: jobWords(store, job),
      key: job.key,
      brandId: job.brandId,
      nextRunAt: iso(job.nextRunAt),
      reason: job.lastError
        ? {
            code: job.lastError.code,
            message: plainTransportMessage(job.lastError.code, job.lastError.message),
          }
        : null,
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
      subject: jobWords(store, job),
      key: job.key,
      brandId: job.brandId,
      finishedAt: iso(job.finishedAt),
      error: job.lastError
        ? {
            code: job.lastError.code,
            message: plainTransportMessage(job.lastError.code, job.lastError.message),
          }
        : null,
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

export function iso(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}

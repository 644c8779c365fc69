// The queue as the user thinks of it: what runs (with progress), what waits and why (paused
// by you, offline since when, the service asked us to wait until a time, a retry later),
// what failed with its reason, what finished recently; and the activity log.
import type { ActivityDoc, JobDoc } from '../../../contract/index.ts';
import type { Engine } from '../core/engine.ts';
import type { JobRecord, Store } from '../store/index.ts';
import { connectionDoc, queueDoc } from './app-status.ts';
import { iso } from './status.ts';
import { plainTransportMessage } from '../api/messages.ts';
import { WAITING_EDIT_STATES } from '../edits/edit-doc.ts';
import { UPLOAD_KIND } from '../folder-sync/file-keys.ts';
import { brandDisplayName } from '../store/brands-repo.ts';

export function jobDoc(
  engine: Engine | null,
  job: JobRecord,
  queue?: ActivityDoc['queue'],
): JobDoc {
  const subject = engine?.describe(job) ?? { area: job.kind, subject: job.key ?? `#${job.id}` };
  return {
    id: job.id,
    kind: job.kind,
    area: subject.area,
    subject: subject.subject,
    brandId: job.brandId,
    state: job.state,
    progress: job.progress,
    attempts: job.attempts,
    waiting: waitingReason(job, queue),
    error:
      job.lastError === null
        ? null
        : {
            code: job.lastError.code,
            // No endpoint or socket code for a person (`GET /credits: … ECONNRESET`).
            message: plainTransportMessage(job.lastError.code, job.lastError.message),
            retryable: job.lastError.retryable,
          },
    updatedAt: iso(job.updatedAt),
    finishedAt: iso(job.finishedAt),
  };
}

function waitingReason(job: JobRecord, queue: ActivityDoc['queue'] | undefined): JobDoc['waiting'] {
  if (job.state !== 'queued' && job.state !== 'retry-wait') return null;
  if (queue?.userPaused) return { code: 'PAUSED', message: 'Paused by you', until: null };
  const condition = queue?.conditions[0];
  if (condition?.name === 'offline')
    return {
      code: condition.code,
      message: 'Waiting for the connection',
      until: condition.nextProbeAt,
    };
  if (condition)
    return { code: condition.code, message: condition.message, until: condition.nextProbeAt };
  if (queue?.rateLimitedUntil) {
    return {
      code: 'RATE_LIMITED',
      message: 'The service asked us to wait',
      until: queue.rateLimitedUntil,
    };
  }
  if (job.state === 'retry-wait') {
    return {
      code: job.lastError?.code ?? 'RETRY',
      message: job.lastError
        ? plainTransportMessage(job.lastError.code, job.lastError.message)
        : 'Waiting to try again',
      until: iso(job.nextRunAt),
    };
  }
  return null;
}

export function activityView(store: Store, engine: Engine | null, limit = 100): ActivityDoc {
  const queue = queueDoc(store, engine);
  const doc = (job: JobRecord) => jobDoc(engine, job, queue);
  const active = [
    ...store.jobs.list({ state: 'running', limit }),
    ...store.jobs.list({ state: 'retry-wait', limit }),
    ...store.jobs.list({ state: 'queued', limit }),
  ];
  return {
    queue,
    connection: connectionDoc(engine),
    active: active.map(doc),
    failed: store.jobs
      .list({ state: 'failed', limit: Math.min(limit, 50) })
      .filter((job) => !uploadSettled(store, job))
      .map(doc),
    done: store.jobs.list({ state: 'done', limit: Math.min(limit, 50) }).map(doc),
    editsWaiting: editsWaiting(store),
    log: store.activity.list({ limit: Math.min(limit, 100), minLevel: 'info' }).map((e) => ({
      id: e.id,
      at: iso(e.at),
      level: e.level,
      code: e.code,
      message: e.message,
      brandId: e.brandId,
    })),
  };
}

/** Per brand, the Brand Edits waiting for the person (as the Brand Edits tab marks them). */
function editsWaiting(store: Store): ActivityDoc['editsWaiting'] {
  const out: ActivityDoc['editsWaiting'] = [];
  for (const brand of store.brands.list()) {
    const count = store.edits
      .list(brand.id)
      .filter((edit) => WAITING_EDIT_STATES.includes(edit.status ?? '')).length;
    if (count > 0) out.push({ brandId: brand.id, brand: brandDisplayName(brand), count });
  }
  return out;
}

/**
 * A failed upload whose file no longer fails (sent again with Retry, changed, or gone) needs
 * nothing more from the person: the job stays failed in the queue, the inbox leaves it out.
 */
function uploadSettled(store: Store, job: JobRecord): boolean {
  if (job.kind !== UPLOAD_KIND) return false;
  const fileId = (job.payload as { fileId?: unknown } | null)?.fileId;
  if (typeof fileId !== 'number') return false;
  const file = store.files.get(fileId);
  return file === undefined || file.state !== 'failed';
}

// What the engine does, as the bridge's numbered events: a job moved, a brand's files or
// Library or Brand Skill changed, credits, the queue, the connection; plus the few moments
// worth a notification (a Brand Skill updated, a brand ready or failed, an upload failed,
// the key refused). Events are hints: a face asks its query again for the truth. What a
// settled job changed is each feature's to say (EngineFeature.announce): this feed knows no
// feature's job kinds.
import type { BridgeEvent } from '../../../contract/index.ts';
import type { Engine, JobFeed } from '../core/engine.ts';
import type { QueueStatus } from '../queue/queue-events.ts';
import { brandDisplayName, type Brand, type JobError, type JobRecord } from '../store/index.ts';
import type { EventJournal } from './event-journal.ts';

/** Progress of one job at most this often; the last state always goes out. */
const PROGRESS_EVERY_MS = 250;
/**
 * A brand's files: the first change goes out at once; more in a burst wait for a short window
 * that doubles while the burst lasts (a scan of 10,000 files is a few hints, not 10,000), and
 * starts short again once a window passes quietly.
 */
const FILES_FIRST_MS = 30;
const FILES_MAX_MS = 400;

export function feedEvents(engine: Engine, journal: EventJournal): () => void {
  const push = (event: BridgeEvent) => journal.push(event);
  const offs: (() => void)[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const progressAt = new Map<number, number>();
  const statuses = new Map(engine.store.brands.list().map((b) => [b.id, b.status]));

  const job = (record: JobRecord, state = record.state) =>
    push({
      type: 'job',
      jobId: record.id,
      kind: record.kind,
      brandId: record.brandId,
      state,
      progress: record.progress,
    });

  const q = engine.queue.events;
  offs.push(
    q.on('job:queued', ({ job: r }) => job(r)),
    q.on('job:started', ({ job: r }) => job(r)),
    q.on('job:retry', ({ job: r }) => job(r, 'retry-wait')),
    q.on('job:requeued', ({ job: r }) => job(r)),
    q.on('job:cancelled', ({ job: r }) => job(r)),
    q.on('job:progress', ({ jobId, kind, done, total }) => {
      const now = Date.now();
      if (now - (progressAt.get(jobId) ?? 0) < PROGRESS_EVERY_MS) return;
      progressAt.set(jobId, now);
      const record = engine.store.jobs.get(jobId);
      push({
        type: 'job',
        jobId,
        kind,
        brandId: record?.brandId ?? null,
        state: 'running',
        progress: { done, total },
      });
    }),
    q.on('job:done', ({ job: r }) => {
      progressAt.delete(r.id);
      job(r);
      settled(r);
    }),
    q.on('job:failed', ({ job: r, error }) => {
      progressAt.delete(r.id);
      job(r);
      settled(r, error);
    }),
    q.on('queue:status', (status) => queueChanged(status)),
    engine.client.rateGate.onChange(() => push({ type: 'queue' })),
    engine.events.on('brands:refreshed', ({ brands }) => {
      push({ type: 'brand', brandId: null });
      for (const brand of brands) brandSeen(brand);
    }),
    engine.events.on('brand:skill-changed', ({ brandId }) => push({ type: 'brand', brandId })),
    engine.events.on('brand:updated', ({ brand }) => {
      brandSeen(brand);
      push({ type: 'brand', brandId: brand.id });
    }),
    engine.store.files.onChange((brandId) => filesChanged(brandId)),
    engine.events.on('edits:changed', ({ brandId }) => push({ type: 'edits', brandId })),
    engine.events.on('credits:changed', () => push({ type: 'credits' })),
    engine.events.on('library:changed', ({ brandId, added, removed, changed }) =>
      push({ type: 'library', brandId, added, removed, changed }),
    ),
    engine.events.on('image:updated', ({ edit }) => {
      push({
        type: 'image',
        imageId: edit.imageId,
        brandId: edit.brandId,
        sourceImageId: edit.sourceImageId,
        status: edit.status,
        finished: edit.finishedAt !== null,
      });
      if (edit.finishedAt === null) return;
      const brand = engine.store.brands.get(edit.brandId);
      const name = brand ? brandDisplayName(brand) : 'the brand';
      push(
        edit.status === 'completed'
          ? {
              type: 'notify',
              kind: 'image-edited',
              title: 'Image edit finished',
              message: `The new image is in ${name}'s Library.`,
              brandId: edit.brandId,
            }
          : {
              type: 'notify',
              kind: 'image-edit-failed',
              title: 'Image edit failed',
              message: edit.advice ?? 'The service could not make this edit; it was not charged.',
              brandId: edit.brandId,
            },
      );
    }),
  );

  /** A brand's status as the engine learned it: a change to ready or failed is worth a notification. */
  function brandSeen(brand: Brand, options: { createdHere?: boolean } = {}): void {
    // A brand created here is known from its creation on: only its end is news.
    if (options.createdHere === true && !statuses.has(brand.id)) statuses.set(brand.id, null);
    const before = statuses.get(brand.id);
    statuses.set(brand.id, brand.status);
    if (before === undefined || before === brand.status) return;
    if (brand.status === 'ready') {
      push({
        type: 'notify',
        kind: 'brand-ready',
        title: `${brandDisplayName(brand)} is ready`,
        message: 'Its Brand Skill is on its way to disk.',
        brandId: brand.id,
      });
    } else if (brand.status === 'failed') {
      push({
        type: 'notify',
        kind: 'brand-failed',
        title: `${brandDisplayName(brand)} failed`,
        message: brand.failureMessage ?? brand.failureCode ?? 'The service could not analyse it.',
        brandId: brand.id,
      });
    }
  }

  const feed: JobFeed = { push, brandSeen };
  /** The feature whose job settled says what it changed. */
  function settled(record: JobRecord, error?: JobError): void {
    for (const feature of engine.features) feature.announce?.(record, feed, error);
  }

  let offlineSince: number | null = null;
  let accountProblem: string | null = null;
  function queueChanged(status: QueueStatus): void {
    push({ type: 'queue' });
    const offline = status.conditions.find((c) => c.name === 'offline');
    if (offline && offlineSince === null) {
      offlineSince = offline.since;
      push({ type: 'connection', online: false, since: new Date(offline.since).toISOString() });
    } else if (!offline && offlineSince !== null) {
      offlineSince = null;
      push({ type: 'connection', online: true, since: new Date().toISOString() });
    }
    const account = status.conditions.find((c) => c.name === 'account');
    if (account && accountProblem === null) {
      accountProblem = account.code;
      push({ type: 'session' });
      push({
        type: 'notify',
        kind: 'signed-out',
        title: 'Brand Sync needs you to sign in again',
        message: account.message,
        brandId: null,
      });
    } else if (!account && accountProblem !== null) {
      accountProblem = null;
      push({ type: 'session' });
    }
  }

  // Per brand, while a window is open: whether more came in it, and its length.
  const filesWindows = new Map<string, { more: boolean; ms: number }>();
  function filesChanged(brandId: string): void {
    const open = filesWindows.get(brandId);
    if (open !== undefined) {
      open.more = true;
      return;
    }
    push({ type: 'files', brandId });
    const window = { more: false, ms: FILES_FIRST_MS };
    filesWindows.set(brandId, window);
    const arm = () => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!window.more) {
          filesWindows.delete(brandId);
          return;
        }
        push({ type: 'files', brandId });
        window.more = false;
        window.ms = Math.min(FILES_MAX_MS, window.ms * 2);
        arm();
      }, window.ms);
      timer.unref();
      timers.add(timer);
    };
    arm();
  }

  return () => {
    for (const off of offs) off();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
}

// The engine: one object that the CLI, the headless host and the Electron host all drive.
// It owns the store, the API client and the durable queue, and wires the features (brands,
// account, Library, folders, Brand Skills) into them. No Electron, no UI here.
import type { BridgeEvent } from '../../../contract/index.ts';
import type { ApiClient } from '../api/index.ts';
import { registerAccountRefresh, refreshAccountKind } from '../account/account-refresh.ts';
import { registerBrandRefresh, refreshBrandsKind } from '../brands/brand-refresh.ts';
import type { EngineEvents } from './engine-events.ts';
import { isCommandJob, JobQueue, TypedEmitter, systemClock } from '../queue/index.ts';
import type { JobQueueOptions } from '../queue/index.ts';
import { z } from 'zod';
import { PAUSE_FOLLOW_MS, recordPause } from './pause.ts';
import { activeJobStates, defineSetting, openStore, queuePausedSetting } from '../store/index.ts';
import { rateLimitedUntilSetting } from '../store/setting.ts';
import type { Brand, JobError, JobRecord, Store } from '../store/index.ts';
import {
  runSyncPass,
  type FeatureReport,
  type SyncReport,
  type SyncPassOptions,
} from './sync-pass.ts';

/** What every feature is built from. */
export interface EngineParts {
  store: Store;
  client: ApiClient;
  queue: JobQueue;
  events: TypedEmitter<EngineEvents>;
  /** The sync root: one folder per brand below it. */
  root: string;
  dataDir: string;
  now: () => number;
}

/** Where a job belongs in a report: "library" of brand X, "file" a/b.png, … */
export interface JobSubject {
  area: string;
  subject: string;
}

/** Where a feature tells the faces what one of its settled jobs changed (the bridge's events). */
export interface JobFeed {
  push(event: BridgeEvent): void;
  /**
   * A brand's status as learned now: a change to ready or failed is a notification.
   * `createdHere`: known from its creation on, so only its end is news.
   */
  brandSeen(brand: Brand, options?: { createdHere?: boolean }): void;
}

export interface EngineFeature {
  readonly name: string;
  /** Enqueues this feature's share of a full reconcile (sync --once, start-up, periodic). */
  reconcile?(): void | Promise<void>;
  /** Long-running parts for `run` (watchers, timers). */
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
  /** Names a job of this feature for reports; undefined when the job is not its own. */
  describe?(job: JobRecord): JobSubject | undefined;
  /**
   * Tells the faces what one of this feature's jobs changed once it settled (done, or failed
   * with `error`), beyond the job's own event; does nothing for a job not its own. Each
   * feature maps its own jobs, so the event feed knows no feature's job kinds.
   */
  announce?(job: JobRecord, feed: JobFeed, error?: JobError): void;
  /**
   * A sync pass begins: keep what report() will need until the release (a feature whose
   * report needs memory keeps nothing while no pass is running).
   */
  holdReport?(): () => void;
  /** A section of the sync report: what this feature did since `since`. */
  report?(since: number): FeatureReport;
}

export type { FeatureReport } from './sync-pass.ts';

export type FeatureFactory = (parts: EngineParts) => EngineFeature;

export interface EngineOptions {
  dataDir: string;
  root: string;
  client: ApiClient;
  now?: () => number;
  queue?: Partial<Omit<JobQueueOptions, 'store'>>;
  /** Features beyond the built-in brand and account refresh, in reconcile order. */
  features?: readonly FeatureFactory[];
  /** A store the host keeps open across engine restarts (sign-in, a new sync root); else one of its own. */
  store?: Store;
}

export class Engine {
  readonly store: Store;
  readonly client: ApiClient;
  readonly queue: JobQueue;
  readonly events: TypedEmitter<EngineEvents>;
  readonly root: string;
  readonly dataDir: string;
  readonly features: readonly EngineFeature[];
  private started = false;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly ownsStore: boolean;

  private constructor(
    parts: EngineParts,
    factories: readonly FeatureFactory[],
    ownsStore: boolean,
  ) {
    this.ownsStore = ownsStore;
    this.store = parts.store;
    this.client = parts.client;
    this.queue = parts.queue;
    this.events = parts.events;
    this.root = parts.root;
    this.dataDir = parts.dataDir;
    this.features = [coreFeature(parts), ...factories.map((make) => make(parts))];
    this.unsubscribe.push(
      this.events.on('notice', (notice) => {
        this.store.activity.add({
          level: notice.level,
          code: notice.code,
          message: notice.message,
          brandId: notice.brandId ?? null,
        });
      }),
      // The service's wait, kept where another process (`brand-sync files`) can read it.
      this.client.rateGate.onChange((until) => {
        try {
          this.store.settings.write(rateLimitedUntilSetting, until ?? null);
        } catch {
          // A closed store at shutdown: nothing to tell any more.
        }
      }),
      this.queue.events.on('job:failed', ({ job, error }) => {
        const subject = this.describe(job);
        this.store.activity.add({
          // A job a command ran and waited for already told its user, who may have been
          // refused for a reason of theirs: it is not the engine's own error to show later.
          level: isCommandJob(this.queue, job.id) ? 'warn' : 'error',
          code: error.code,
          message: `${subject.area} ${subject.subject}: ${error.message}`,
          brandId: job.brandId,
        });
      }),
    );
  }

  static open(options: EngineOptions): Engine {
    const now = options.now ?? Date.now;
    const store = options.store ?? openStore({ dataDir: options.dataDir }, { now });
    try {
      const queue = new JobQueue({
        store,
        clock: options.now === undefined ? systemClock : { now, setTimer: systemClock.setTimer },
        rateGate: options.client.rateGate,
        ...options.queue,
      });
      const parts: EngineParts = {
        store,
        client: options.client,
        queue,
        events: new TypedEmitter<EngineEvents>(),
        root: options.root,
        dataDir: options.dataDir,
        now,
      };
      return new Engine(parts, options.features ?? [], options.store === undefined);
    } catch (error) {
      if (options.store === undefined) store.close();
      throw error;
    }
  }

  /** Names a job for reports and the activity log. */
  describe(job: JobRecord): JobSubject {
    for (const feature of this.features) {
      const subject = feature.describe?.(job);
      if (subject !== undefined) return subject;
    }
    return { area: job.kind, subject: job.key ?? `#${job.id}` };
  }

  /** Enqueues a full reconcile: every feature's share, in order. */
  async reconcile(): Promise<void> {
    for (const feature of this.features) await feature.reconcile?.();
  }

  /** The jobs the last requested pass enqueued, while it may still be under way. */
  #requested: { jobs: number[]; enqueuing: Promise<void> } | null = null;

  /**
   * A full pass a person asked for (Sync now, the tray): one that is still under way is joined
   * instead of being enqueued again, so that a burst of requests (a key held down, a script
   * in a loop) makes one pass, not one per request. Returns whether it joined one.
   */
  async requestSync(): Promise<{ joined: boolean }> {
    const last = this.#requested;
    if (last !== null) {
      await last.enqueuing;
      const active = (id: number) => {
        const state = this.store.jobs.get(id)?.state;
        return state !== undefined && activeJobStates.includes(state);
      };
      if (last.jobs.some(active)) {
        return { joined: true };
      }
    }
    const jobs: number[] = [];
    const off = this.queue.events.on('job:queued', ({ job }) => void jobs.push(job.id));
    const enqueuing = this.reconcile().finally(off);
    this.#requested = { jobs, enqueuing: enqueuing.catch(() => undefined) };
    await enqueuing;
    return { joined: false };
  }

  /** One full reconcile that waits until the queue settles (`sync --once`). */
  syncOnce(options: SyncPassOptions = {}): Promise<SyncReport> {
    return runSyncPass(this, options);
  }

  /** Starts the queue and every feature's long-running part (`run`, the desktop hosts). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.queue.start();
    for (const feature of this.features) await feature.start?.();
    await this.reconcile();
  }

  /**
   * Stops taking new work, kept across restarts; running jobs finish. `by` says who, for the
   * activity log ('you': the window or this process; 'another process': `brand-sync pause`).
   */
  pause(by = 'you'): void {
    recordPause(this.store, true, by);
    this.queue.pause();
  }

  resume(by = 'you'): void {
    recordPause(this.store, false, by);
    this.queue.resume();
  }

  /** A clean shutdown: features stop, running jobs go back to the queue, the store closes. */
  async close(): Promise<void> {
    for (const feature of [...this.features].reverse()) await feature.stop?.();
    await this.queue.stop();
    for (const off of this.unsubscribe) off();
    if (this.ownsStore) this.store.close();
  }
}

export const brandRefreshIntervalSetting = defineSetting(
  'brands.refreshIntervalMs',
  z.number().int().min(60_000),
  10 * 60 * 1000,
  'How often the running engine lists brands and refreshes credits: a new brand gets its folder, Library and Brand Skill without a restart.',
);

/** Brands and account: what every other feature starts from. */
function coreFeature(parts: EngineParts): EngineFeature {
  const account = registerAccountRefresh(parts);
  const brands = registerBrandRefresh(parts);
  let timer: NodeJS.Timeout | undefined;
  let followPause: NodeJS.Timeout | undefined;
  return {
    name: 'core',
    reconcile() {
      account.enqueue({}, { key: refreshAccountKind, priority: 10 });
      brands.enqueue({}, { key: refreshBrandsKind, priority: 10 });
    },
    start() {
      const every = parts.store.settings.read(brandRefreshIntervalSetting);
      timer = setInterval(() => {
        account.enqueue({}, { key: refreshAccountKind, priority: 10 });
        brands.enqueue({ periodic: true }, { key: refreshBrandsKind, priority: 10 });
      }, every);
      timer.unref();
      // `brand-sync pause` in another process writes the setting; the running queue follows.
      followPause = setInterval(() => {
        const wanted = parts.store.settings.read(queuePausedSetting);
        if (wanted === parts.queue.status().userPaused) return;
        if (wanted) parts.queue.pause();
        else parts.queue.resume();
      }, PAUSE_FOLLOW_MS);
      followPause.unref();
    },
    stop() {
      clearInterval(timer);
      clearInterval(followPause);
      timer = undefined;
      followPause = undefined;
    },
    describe(job) {
      if (job.kind === refreshAccountKind) return { area: 'credits', subject: 'workspaces' };
      if (job.kind === refreshBrandsKind) return { area: 'brands', subject: 'list' };
      return undefined;
    },
    announce(job, feed) {
      if (job.state !== 'done') return;
      if (job.kind === refreshBrandsKind) feed.push({ type: 'brand', brandId: job.brandId });
      if (job.kind === refreshAccountKind) feed.push({ type: 'credits' });
    },
  };
}

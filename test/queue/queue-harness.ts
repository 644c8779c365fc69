// A queue on a real database file with a manual clock, and helpers to build the errors
// the API client throws.
import { ApiError } from '../../main/engine/api/errors.ts';
import type { ApiErrorKind } from '../../main/engine/api/errors.ts';
import { JobQueue } from '../../main/engine/queue/index.ts';
import type { JobQueueOptions, QueueEvents } from '../../main/engine/queue/index.ts';
import { openTempStore } from '../store/open-temp-store.ts';
import type { TempStore } from '../store/open-temp-store.ts';
import { ManualClock } from './manual-clock.ts';

export interface Harness {
  t: TempStore;
  clock: ManualClock;
  queue: JobQueue;
  events: { name: keyof QueueEvents; payload: unknown }[];
  /** A second queue on the same database (another restart of the app). */
  restart: (options?: Partial<JobQueueOptions>) => Promise<JobQueue>;
  cleanup: () => Promise<void>;
}

export function makeHarness(options: Partial<JobQueueOptions> = {}): Harness {
  const clock = new ManualClock();
  const t = openTempStore({ now: () => clock.now() });
  const events: Harness['events'] = [];
  const build = (more: Partial<JobQueueOptions> = {}): JobQueue => {
    const queue = new JobQueue({ store: t.store, clock, random: () => 0.5, ...options, ...more });
    for (const name of [
      'job:queued',
      'job:started',
      'job:progress',
      'job:retry',
      'job:done',
      'job:failed',
      'job:cancelled',
      'job:requeued',
      'queue:status',
      'queue:error',
    ] as const) {
      queue.events.on(name, (payload) => events.push({ name, payload }));
    }
    return queue;
  };
  const harness: Harness = {
    t,
    clock,
    queue: build(),
    events,
    restart: async (more) => {
      await harness.queue.stop();
      harness.queue = build(more);
      return harness.queue;
    },
    cleanup: async () => {
      await harness.queue.stop();
      t.cleanup();
    },
  };
  return harness;
}

export function apiError(
  kind: ApiErrorKind,
  code: string,
  status: number,
  extra: { retryAfterMs?: number } = {},
): ApiError {
  return new ApiError({
    kind,
    code,
    status,
    message: `${code} from the service`,
    endpoint: 'POST /x',
    ...extra,
  });
}

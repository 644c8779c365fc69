// The jobs table's de-duplication by key: asking again for work already waiting finds it,
// raises its priority, and brings a later run time forward, never a retry's backoff.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../main/engine/store/index.ts';
import { openTempStore, type TempStore } from './open-temp-store.ts';

let t: TempStore;
let store: Store;
beforeEach(() => {
  t = openTempStore();
  store = t.store;
});
afterEach(() => t.cleanup());

const now = () => t.clock.now;

describe('jobs with a key', () => {
  it('a job queued for later runs at the earlier time when asked for sooner, and never later', () => {
    const first = store.jobs.enqueue(
      { kind: 'refresh', payload: { n: 1 }, key: 'library:b1', runAt: now() + 1500 },
      now(),
    );
    expect(first.created).toBe(true);
    const later = store.jobs.enqueue(
      { kind: 'refresh', payload: { n: 2 }, key: 'library:b1', runAt: now() + 5000 },
      now(),
    );
    expect(later).toMatchObject({ created: false, job: { id: first.job.id } });
    expect(later.job.nextRunAt).toBe(now() + 1500);
    const sooner = store.jobs.enqueue(
      { kind: 'refresh', payload: { n: 3 }, key: 'library:b1', runAt: now() },
      now(),
    );
    expect(sooner).toMatchObject({ created: false, job: { id: first.job.id, payload: { n: 1 } } });
    expect(sooner.job.nextRunAt).toBe(now());
    expect(store.jobs.get(first.job.id)?.nextRunAt).toBe(now());
  });

  it('a retry waiting out its backoff is not brought forward', () => {
    const { job } = store.jobs.enqueue({ kind: 'upload', payload: {}, key: 'up:1' }, now());
    const claimed = store.jobs.claimNext(['upload'], 'owner-1', now(), now() + 60_000);
    expect(claimed?.id).toBe(job.id);
    store.jobs.retryLater(
      job.id,
      'owner-1',
      { nextRunAt: now() + 30_000, error: null, refund: true, networkFailure: false },
      now(),
    );
    const again = store.jobs.enqueue({ kind: 'upload', payload: {}, key: 'up:1' }, now());
    expect(again).toMatchObject({ created: false, job: { id: job.id, state: 'retry-wait' } });
    expect(store.jobs.get(job.id)?.nextRunAt).toBe(now() + 30_000);
  });

  it("claims by kind, even a kind with quotes in it, and never another kind's job", () => {
    const odd = "it's' OR kind <> '";
    const other = store.jobs.enqueue({ kind: 'upload', payload: {} }, now());
    const mine = store.jobs.enqueue({ kind: odd, payload: {} }, now());
    expect(store.jobs.claimNext([odd], 'owner-1', now(), now() + 60_000)?.id).toBe(mine.job.id);
    expect(store.jobs.claimNext([odd], 'owner-1', now(), now() + 60_000)).toBeUndefined();
    expect(store.jobs.get(other.job.id)?.state).toBe('queued');
    expect(store.jobs.claimNext(['upload', odd], 'owner-1', now(), now() + 60_000)?.id).toBe(
      other.job.id,
    );
  });

  it('tells whether any job of a kind is unfinished', () => {
    expect(store.jobs.hasActive('upload')).toBe(false);
    const { job } = store.jobs.enqueue({ kind: 'upload', payload: {} }, now());
    expect(store.jobs.hasActive('upload')).toBe(true);
    expect(store.jobs.hasActive('refresh')).toBe(false);
    store.jobs.claimNext(['upload'], 'owner-1', now(), now() + 60_000);
    expect(store.jobs.hasActive('upload')).toBe(true);
    store.jobs.complete(job.id, 'owner-1', null, now());
    expect(store.jobs.hasActive('upload')).toBe(false);
  });
});

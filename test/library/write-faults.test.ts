// Makes the i-th database write fail, for every i over a whole sync (queue bookkeeping and
// Library mirroring of two brands), and shows that the next run recovers with nothing
// lost: every item mirrored in the service's order, no job stuck or failed, a sound file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  LibraryMirror,
  librarySyncJob,
  librarySyncJobKind,
  librarySyncKey,
} from '../../main/engine/library/index.ts';
import { JobQueue, systemClock } from '../../main/engine/queue/index.ts';
import type { QueueClock } from '../../main/engine/queue/index.ts';
import { StoreError, databaseFileName, openStore } from '../../main/engine/store/index.ts';
import type { Store } from '../../main/engine/store/index.ts';
import { makeTempDir } from '../store/temp-dir.ts';
import { startSimHarness } from './sim-harness.ts';
import type { SimHarness } from './sim-harness.ts';

let h: SimHarness;
let temp: ReturnType<typeof makeTempDir>;
let brands: string[];
let templateDb: string;
let emptyDb: string;
// Power-loss durability (fsync per commit) is not under test here, and costs most of the time.
const fast = { durability: 'normal' } as const;
const expected = new Map<string, string[]>();

/** One run of the engine: enqueue a Library sync per brand and work until nothing more can run now. */
async function run(store: Store, clock: QueueClock, until: 'idle' | 'settled'): Promise<void> {
  const queue = new JobQueue({ store, clock, random: () => 0.5 });
  const kind = queue.register(
    librarySyncJobKind,
    librarySyncJob(new LibraryMirror({ store, source: h.client, pageSize: 5 })),
  );
  try {
    for (const brandId of brands) kind.enqueue({ brandId, mode: 'auto' }, librarySyncKey(brandId));
    queue.start();
    await (until === 'idle' ? queue.whenIdle() : queue.whenSettled());
  } catch (error) {
    if (until === 'settled') throw error;
    // An injected failure escaped (enqueue or start): the run ends here, as a crash would.
  } finally {
    await queue.stop().catch(() => undefined);
  }
}

function liveIds(store: Store, brandId: string): string[] {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = store.library.list(brandId, { limit: 500, cursor });
    ids.push(...page.items.map((i) => i.id));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return ids;
}

/** Runs the sync with write i failing, then a clean run; returns whether write i was reached. */
async function faultThenRecover(i: number, start: string): Promise<boolean> {
  const dir = join(temp.dir, `run-${start === emptyDb ? 'first' : 'refresh'}-${i}`);
  mkdirSync(dir);
  copyFileSync(start, join(dir, databaseFileName));
  const faulty = openStore({ dataDir: dir }, fast);
  let reached = false;
  faulty.setWriteHook((n) => {
    if (n !== i) return;
    reached = true;
    throw new StoreError('INJECTED_FAULT', `write ${i} failed (injected)`);
  });
  await run(faulty, systemClock, 'idle');
  faulty.close();

  // The next run, a day later (every backoff has passed), without faults.
  const store = openStore({ dataDir: dir }, fast);
  try {
    const later: QueueClock = {
      now: () => Date.now() + 86_400_000,
      setTimer: systemClock.setTimer,
    };
    await run(store, later, 'settled');
    for (const brandId of brands) {
      expect(liveIds(store, brandId), `write ${i}: Library of ${brandId}`).toEqual(
        expected.get(brandId),
      );
      expect(store.syncState.get('library', brandId), `write ${i}`).toMatchObject({
        lastError: null,
      });
    }
    const counts = store.jobs.countsByState();
    expect(counts, `write ${i}: jobs`).toMatchObject({
      queued: 0,
      running: 0,
      'retry-wait': 0,
      failed: 0,
    });
    expect(store.integrityCheck()).toEqual(['ok']);
  } finally {
    store.close();
  }
  return reached;
}

beforeAll(async () => {
  h = await startSimHarness();
  temp = makeTempDir();
  brands = [
    (await h.sim.control.seedBrand({ status: 'ready' })).id,
    (await h.sim.control.seedBrand({ status: 'ready' })).id,
  ];
  h.sim.control.seedLibrary(brands[0]!, { bulk: { count: 12 } });
  h.sim.control.seedLibrary(brands[1]!, { bulk: { count: 7, types: ['image', 'hologram'] } });
  // The state before new items arrived: one completed sync of each brand.
  const templateDir = join(temp.dir, 'template');
  const emptyDir = join(temp.dir, 'empty');
  openStore({ dataDir: emptyDir }, fast).close();
  emptyDb = join(emptyDir, databaseFileName);
  const template = openStore({ dataDir: templateDir }, fast);
  await run(template, systemClock, 'settled');
  template.close();
  templateDb = join(templateDir, databaseFileName);
  h.sim.control.advance(3_600_000);
  h.sim.control.seedLibrary(brands[0]!, { bulk: { count: 8 } });
  h.sim.control.seedLibrary(brands[1]!, { bulk: { count: 6 } });
  for (const brandId of brands) {
    const ids: string[] = [];
    for await (const item of h.client.library(brandId, { limit: 100 })) ids.push(item.id);
    expected.set(brandId, ids);
  }
});

afterAll(async () => {
  await h.close();
  temp.cleanup();
});

describe('a failing database write at any point of a sync', () => {
  it.each([
    ['the first sync', 'empty'],
    ['a refresh that finds new items', 'template'],
  ])('during %s loses nothing: the next run completes it', async (_name, start) => {
    let i = 1;
    while (await faultThenRecover(i, start === 'empty' ? emptyDb : templateDb)) i++;
    // The last run never reached write i: every write of the sync was made to fail once.
    expect(i - 1).toBeGreaterThan(20);
  });
});

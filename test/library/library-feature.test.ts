// The Library feature in the engine's sync pass, against the simulator over real HTTP: the
// first pass pages through every Library, an unchanged one costs one request per brand,
// new items are found, items that left a Library are marked after a full pass, brands
// deleted on the service are skipped, and the report names what happened.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Engine } from '../../main/engine/core/engine.ts';
import type { SyncReport } from '../../main/engine/core/sync-pass.ts';
import {
  libraryFeatureWith,
  librarySync,
  librarySyncJobKind,
} from '../../main/engine/library/index.ts';
import type { LibraryReport } from '../../main/engine/library/index.ts';
import { libraryFullPassIntervalSetting } from '../../main/engine/store/index.ts';
import type { FeatureFactory } from '../../main/engine/core/engine.ts';
import { libraryRequests, libraryRoute, startSimHarness } from './sim-harness.ts';
import type { SimHarness } from './sim-harness.ts';

let h: SimHarness;
let dir: string;
let engine: Engine | undefined;
const clock = { now: 0 };

beforeEach(async () => {
  h = await startSimHarness();
  dir = await mkdtemp(path.join(os.tmpdir(), 'library-feature-'));
  clock.now = Date.parse('2026-03-01T12:00:00Z');
});
afterEach(async () => {
  await engine?.close();
  engine = undefined;
  await h.close();
  await rm(dir, { recursive: true, force: true });
});

function open(feature: FeatureFactory = librarySync): Engine {
  engine = Engine.open({
    dataDir: path.join(dir, 'data'),
    root: path.join(dir, 'root'),
    client: h.client,
    now: () => clock.now,
    features: [feature],
    queue: { backoff: { baseMs: 5, capMs: 20 } },
  });
  return engine;
}

function section(report: SyncReport): LibraryReport {
  const library = report.sections.library as LibraryReport | undefined;
  expect(library).toBeDefined();
  return library as LibraryReport;
}

async function brandWith(name: string, count: number): Promise<string> {
  const { id } = await h.sim.control.seedBrand({ name, status: 'ready' });
  if (count > 0) h.sim.control.seedLibrary(id, { bulk: { count } });
  return id;
}

/** A sync pass that must succeed; the clock moves a minute first. */
async function sync(): Promise<SyncReport> {
  clock.now += 60_000;
  const report = await (engine ?? open()).syncOnce();
  expect(report.failures).toEqual([]);
  expect(report.ok).toBe(true);
  return report;
}

describe('the Library in a sync pass', () => {
  test('the first pass pages through every Library; then an unchanged one costs one request', async () => {
    const acme = await brandWith('Acme', 250);
    const empty = await brandWith('Empty', 0);
    const first = section(await sync());
    expect(libraryRequests(h.sim, acme)).toBe(3);
    expect(libraryRequests(h.sim, empty)).toBe(1);
    expect(first.libraries).toEqual([
      expect.objectContaining({ brandId: acme, name: 'Acme', new: 250, items: 250, requests: 3 }),
      expect.objectContaining({ brandId: empty, name: 'Empty', new: 0, items: 0, requests: 1 }),
    ]);
    expect(first.summary).toContain('Library of Acme: 250 new items (250 in all).');
    expect(engine!.store.library.count(acme)).toBe(250);

    h.sim.control.clearLog();
    const second = section(await sync());
    // Exactly one Library request per brand, seen by the service itself.
    expect(h.sim.control.log({ route: libraryRoute })).toHaveLength(2);
    expect(libraryRequests(h.sim, acme)).toBe(1);
    expect(libraryRequests(h.sim, empty)).toBe(1);
    expect(second.requests).toBe(2);
    expect(second.libraries.every((l) => l.outcome === 'unchanged')).toBe(true);
    expect(second.summary).toEqual(['Libraries unchanged: Acme (250 items), Empty (0 items).']);
  });

  test('new items are found by a refresh that stops at the known ones', async () => {
    const acme = await brandWith('Acme', 120);
    await sync();
    await h.sim.control.advance(3_600_000);
    h.sim.control.seedLibrary(acme, {
      items: [{ type: 'image', description: 'fresh poster' }, { type: 'hologram' }],
    });
    h.sim.control.seedLibrary(acme, { bulk: { count: 1 } });
    h.sim.control.clearLog();
    const report = section(await sync());
    // Page 1 holds the new items, page 2 only known ones: there the refresh stops.
    expect(libraryRequests(h.sim, acme)).toBe(2);
    expect(report.libraries[0]).toMatchObject({ new: 3, items: 123, fullPass: false });
    expect(report.summary).toEqual(['Library of Acme: 3 new items (123 in all).']);
    const newest = engine!.store.library.list(acme, { limit: 3 }).items;
    expect(newest.map((i) => i.type)).toEqual(['image', 'hologram', 'image']);
  });

  test('an item that left the Library is marked removed by the next full pass', async () => {
    const acme = await brandWith('Acme', 150);
    await sync();
    const [victim] = engine!.store.library.list(acme, { limit: 1, type: 'video' }).items;
    h.sim.control.unlistLibraryItem(acme, victim!.id);

    // A refresh reads only the newest page: it cannot see a removal.
    const refresh = section(await sync());
    expect(refresh.libraries[0]).toMatchObject({ fullPass: false, removed: 0, requests: 1 });
    expect(engine!.store.library.get(victim!.id)?.removed).toBe(false);

    // Once the full pass is due (setting), the next sync reads everything and marks it.
    clock.now += engine!.store.settings.read(libraryFullPassIntervalSetting);
    const full = section(await sync());
    expect(full.libraries[0]).toMatchObject({ fullPass: true, removed: 1, items: 149 });
    expect(full.summary).toEqual(['Library of Acme: 1 removed (149 in all).']);
    expect(engine!.store.library.get(victim!.id)).toMatchObject({ removed: true });
    expect(engine!.store.library.list(acme, { removed: true }).items.map((i) => i.id)).toEqual([
      victim!.id,
    ]);
    const freshness = engine!.store.syncState.get('library', acme);
    expect(freshness.lastFullPassAt).toBe(clock.now);
  });

  test('a brand deleted on the service is skipped; its mirror stays for offline reading', async () => {
    const gone = await brandWith('Gone', 30);
    const kept = await brandWith('Kept', 5);
    await sync();
    const res = await fetch(`${h.sim.baseUrl}/brands/${gone}`, {
      method: 'DELETE',
      headers: { 'x-api-key': h.sim.apiKey },
    });
    expect(res.status).toBe(200);
    h.sim.control.clearLog();
    const report = section(await sync());
    expect(libraryRequests(h.sim, gone)).toBe(0);
    expect(libraryRequests(h.sim, kept)).toBe(1);
    expect(report.libraries.map((l) => l.name)).toEqual(['Kept']);
    expect(engine!.store.library.count(gone)).toBe(30);
  });

  test('a job for a brand the store knows is deleted does not reach the service', async () => {
    const gone = await brandWith('Gone', 3);
    await sync();
    engine!.store.brands.markDeletedRemotely(gone);
    h.sim.control.clearLog();
    engine!.queue.enqueue(librarySyncJobKind, { brandId: gone }, { brandId: gone });
    engine!.queue.start();
    await engine!.queue.whenSettled();
    expect(libraryRequests(h.sim, gone)).toBe(0);
    const report = section(await engine!.syncOnce());
    expect(report.summary).toContain(
      'Library of Gone: skipped, the brand was deleted on the service.',
    );
  });

  test('a failed Library sync is reported as the library of the brand, by name', async () => {
    const acme = await brandWith('Acme', 3);
    h.sim.control.failNext(libraryRoute, { status: 400, code: 'BAD_REQUEST', message: 'nope' });
    clock.now += 60_000;
    const report = await open(libraryFeatureWith({ pageSize: 2 })).syncOnce();
    expect(report.ok).toBe(false);
    expect(report.failures).toEqual([
      expect.objectContaining({
        area: 'library',
        subject: 'Acme',
        brandId: acme,
        code: 'BAD_REQUEST',
      }),
    ]);
    expect(section(report).summary).toEqual(['Library of Acme: not synced (see below).']);
    // The next pass recovers, two items a page.
    h.sim.control.clearLog();
    const next = section(await sync());
    expect(libraryRequests(h.sim, acme)).toBe(2);
    expect(next.libraries[0]).toMatchObject({ new: 3, items: 3 });
  });
});

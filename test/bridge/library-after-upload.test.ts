// What was just uploaded shows in the brand's Library within seconds (one refresh per brand
// after its uploads, not the next 15-minute refresh): the window and `library list` never
// call a Library empty for an item the service already has.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makePng } from '../folder-parts/fixtures.ts';
import { startBridge, until, type Bridge } from './harness.ts';

let b: Bridge;
beforeAll(async () => {
  b = await startBridge();
});
afterAll(async () => {
  await b?.close();
});

/** Northwind Coffee, once its Library was first mirrored. */
function mirrored(bridge: Bridge): Promise<{ id: string }> {
  return until(async () => {
    const found = (await bridge.ok('status')).brands.find(
      (x: { name: string }) => x.name === 'Northwind Coffee',
    );
    return found?.library.items > 0 ? found : undefined;
  }, 'the first Library mirror');
}

/** Drops a PNG per seed into Northwind Coffee's folder; resolves once the mirror has them all. */
async function dropAndWait(bridge: Bridge, brandId: string, seeds: number[], ms: number) {
  const count = async () => (await bridge.ok('library', { brandId, limit: 500 })).items.length;
  const before = await count();
  for (const seed of seeds) {
    await writeFile(
      path.join(bridge.root, 'Northwind Coffee', `dropped-${seed}.png`),
      makePng({ width: 4, height: 4, seed }),
    );
  }
  await until(
    async () => (await count()) === before + seeds.length,
    `the ${seeds.length} uploads in the mirrored Library`,
    ms,
  );
}

test('an uploaded file is in the mirrored Library within seconds, one refresh for a burst', async () => {
  const brand = await mirrored(b);
  const refreshesBefore = b.sim.control.log({ route: 'GET /v1/brands/{id}/library' }).length;
  await dropAndWait(b, brand.id, [81, 82, 83], 20_000);
  // The burst shared its refresh: a few Library requests, not one per file and page.
  const requests =
    b.sim.control.log({ route: 'GET /v1/brands/{id}/library' }).length - refreshesBefore;
  expect(requests).toBeGreaterThan(0);
  expect(requests).toBeLessThanOrEqual(4);
});

test('a long burst of uploads: a refresh that ends during it is followed a little later, not at once', async () => {
  // Uploads that take 200 ms and Library pages that take 150 ms: 150 files keep the queue
  // busy for seconds (12 uploads at once: some 2.5 s), and uploads finish while each refresh
  // runs. Followed at once, every such refresh drew the next, back to back (two pages every
  // 300 ms); followed 1.5 s later, the burst costs a refresh or so every two seconds and one
  // after its last upload.
  const slow = await startBridge({
    simulator: {
      faults: 'POST /v1/images/uploads/file:latency=200;GET /v1/brands/{id}/library:latency=150',
    },
  });
  try {
    const brand = await mirrored(slow);
    const since = slow.sim.control.log({ route: 'GET /v1/brands/{id}/library' }).length;
    await dropAndWait(
      slow,
      brand.id,
      Array.from({ length: 150 }, (_, i) => 100 + i),
      60_000,
    );
    const uploads = slow.sim.control.log({ route: 'POST /v1/images/uploads/file' });
    const burstMs = Math.max(...uploads.map((e) => e.at)) - Math.min(...uploads.map((e) => e.at));
    expect(burstMs).toBeGreaterThan(2_000);
    const requests = slow.sim.control.log({ route: 'GET /v1/brands/{id}/library' }).length - since;
    // Two pages a refresh, one every 1.5 s of the burst at most, and two around its end.
    expect(requests).toBeLessThanOrEqual(2 * (Math.ceil(burstMs / 1_500) + 2));
  } finally {
    await slow.close();
  }
});

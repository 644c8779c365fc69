// What was just uploaded shows in the brand's Library within seconds (one refresh per brand
// after its uploads, not the next 15-minute refresh): the window and `library list` never
// call a Library empty for an item the service already has.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makePng } from '../folders/fixtures.ts';
import { startBridge, until, type Bridge } from './harness.ts';

let b: Bridge;
beforeAll(async () => {
  b = await startBridge();
});
afterAll(async () => {
  await b?.close();
});

test('an uploaded file is in the mirrored Library within seconds, one refresh for a burst', async () => {
  const brand = await until(async () => {
    const found = (await b.ok('status')).brands.find(
      (x: { name: string }) => x.name === 'Northwind Coffee',
    );
    return found?.library.items > 0 ? found : undefined;
  }, 'the first Library mirror');
  const before = (await b.ok('library', { brandId: brand.id, limit: 500 })).items.length;
  const refreshesBefore = b.sim.control.log({ route: 'GET /v1/brands/{id}/library' }).length;
  for (const seed of [81, 82, 83]) {
    await writeFile(
      path.join(b.root, 'Northwind Coffee', `fresh-${seed}.png`),
      makePng({ width: 4, height: 4, seed }),
    );
  }
  await until(
    async () =>
      (await b.ok('library', { brandId: brand.id, limit: 500 })).items.length === before + 3,
    'the three uploads in the mirrored Library',
    20_000,
  );
  // The burst shared its refresh: a few Library requests, not one per file and page.
  const requests =
    b.sim.control.log({ route: 'GET /v1/brands/{id}/library' }).length - refreshesBefore;
  expect(requests).toBeGreaterThan(0);
  expect(requests).toBeLessThanOrEqual(4);
});

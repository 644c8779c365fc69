// Uploads at once are bounded by the bytes they hold, not only by their number: with room for
// two files' bytes, the service never has more than two uploads open at once, and every file
// is still sent, once.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makePngOfSize } from '../folder-parts/fixtures.ts';
import { harness, type Harness } from './harness.ts';

const UPLOAD = 'POST /v1/images/uploads/file';
let h: Harness;
beforeEach(async () => {
  // Each upload held open a while, so that uploads at once overlap at the service.
  h = await harness({ faults: `${UPLOAD}: latency=150-200` });
});
afterEach(async () => {
  await h.close();
});

/** The most requests the service had open at one time. */
function mostAtOnce(entries: { at: number; durationMs: number | null }[]): number {
  const edges = entries.flatMap((e) => [
    { t: e.at, d: 1 },
    { t: e.at + (e.durationMs ?? 0), d: -1 },
  ]);
  edges.sort((a, b) => a.t - b.t || a.d - b.d);
  let open = 0;
  let most = 0;
  for (const edge of edges) most = Math.max(most, (open += edge.d));
  return most;
}

test('the uploads hold no more bytes at once than their budget', async () => {
  const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
  const engine = h.open({ uploadConcurrency: 8, uploadBytesInFlight: 250 * 1024 });
  await engine.syncOnce();
  const sizes = Array.from({ length: 10 }, (_, i) => 100 * 1024 + i);
  const sent = await Promise.all(
    sizes.map((size, i) => h.put('Acme', `f${i}.png`, makePngOfSize(size))),
  );

  const report = await engine.syncOnce();
  expect(report.failures).toEqual([]);
  expect(new Set(h.received(brand.id).keys())).toEqual(new Set(sent));
  expect([...h.received(brand.id).values()].every((n) => n === 1)).toBe(true);
  const uploads = h.sim.control.log({ route: UPLOAD }).filter((e) => e.status === 200);
  expect(uploads).toHaveLength(10);
  // Two files of 100 KiB fit in 250 KiB, three do not; 8 at once would be allowed otherwise.
  expect(mostAtOnce(uploads)).toBe(2);
});

// `run` says what it does as it happens: one line per file (uploaded, skipped and why), one
// line per slowdown of the service (not one per 429), and with --json one JSON object per
// line for scripts.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { makeGif, makePng } from '../folder-parts/fixtures.ts';
import { waitFor } from '../folder-sync/harness.ts';
import { useCliFixture } from '../support/cli-fixture.ts';
import { runCli, whileRunning } from '../support/run-cli.ts';

const f = useCliFixture('sk-run-feed-0123456789');

async function dropAndWait(brandId: string): Promise<void> {
  await waitFor('the brand folder', () => existsSync(path.join(f.dir, 'root', 'Acme')));
  for (let i = 0; i < 3; i++) await f.put(`Acme/p${i}.png`, makePng({ seed: 30 + i }));
  await f.put('Acme/anim.gif', makeGif());
  await waitFor('the uploads', () => f.sim.control.uploads(brandId).length === 3);
  // The store says so once the engine recorded them (and so printed their lines).
  await waitFor('the files recorded', async () => {
    const files = await runCli(['files', '--json'], f.env(), f.key);
    const counts = (JSON.parse(files.stdout) as { counts: Record<string, number> }).counts;
    return counts.uploaded === 3 && counts.skipped === 1;
  });
}

test('run prints one line per file and one line for a run of 429s', async () => {
  const { id } = await f.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
  f.sim.control.injectFault('POST /v1/images/*', '429', 3);
  const run = await whileRunning(f.env(), () => dropAndWait(id));
  for (let i = 0; i < 3; i++) expect(run.stderr).toMatch(new RegExp(`uploaded Acme/p${i}\\.png`));
  expect(run.stderr).toMatch(/skipped Acme\/anim\.gif: GIF is not accepted/);
  expect(run.stderr.match(/Paused by the service/g) ?? []).toHaveLength(1);
}, 60_000);

test('run --json prints one JSON object per line', async () => {
  const { id } = await f.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
  const run = await whileRunning(f.env(), () => dropAndWait(id), ['--json']);
  const events = run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; path?: string });
  expect(events[0]?.type).toBe('running');
  expect(
    events
      .filter((e) => e.type === 'uploaded')
      .map((e) => e.path)
      .sort(),
  ).toEqual(['p0.png', 'p1.png', 'p2.png']);
  expect(events).toContainEqual(expect.objectContaining({ type: 'skipped', path: 'anim.gif' }));
  expect(events.at(-1)?.type).toBe('stopped');
}, 60_000);

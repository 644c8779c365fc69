// The event feed over a real engine (the simulator over real HTTP, the real SQLite, real
// folders): each feature says what its settled job changed, right after the job's own
// event, and the feed itself names no job kind.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { BridgeEvent } from '../../contract/index.ts';
import { feedEvents } from '../../main/engine/app/event-feed.ts';
import { EventJournal } from '../../main/engine/app/event-journal.ts';
import type { Engine } from '../../main/engine/core/engine.ts';
import { folderSyncFeature } from '../../main/engine/folder-sync/folder-sync-feature.ts';
import { defaultTestFeatures, startHarness, type Harness } from '../brands/harness.ts';
import { makePng } from '../folder-parts/fixtures.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

/** What the feed pushed, in order, while `work` ran. */
async function fed(engine: Engine, work: () => Promise<unknown>): Promise<BridgeEvent[]> {
  const journal = new EventJournal();
  const events: BridgeEvent[] = [];
  const off = journal.subscribe(
    ({ seq: _seq, at: _at, ...event }) => void events.push(event as BridgeEvent),
  );
  const stop = feedEvents(engine, journal);
  try {
    await work();
  } finally {
    stop();
    off();
  }
  return events;
}

/**
 * The `count` events pushed right after the job event saying a job of `kind` ended in
 * `state`: the feature's own, told synchronously as the job settles.
 */
function after(events: BridgeEvent[], kind: string, state: string, count = 1): BridgeEvent[] {
  const at = events.findIndex((e) => e.type === 'job' && e.kind === kind && e.state === state);
  expect(at, `a ${kind} job ${state}`).toBeGreaterThanOrEqual(0);
  return events.slice(at + 1, at + 1 + count);
}

test('a sync pass: brands, credits, edits, the Brand Skill, a logo and a refused upload, each told by its feature', async () => {
  const { id: brandId } = await h.sim.control.seedBrand({ name: 'Feed Co' });
  h.sim.control.seedEdit({ brandId, status: 'awaiting_approval' });
  const engine = h.open([...defaultTestFeatures, folderSyncFeature({ windowMs: 150 })]);

  const first = await fed(engine, () => engine.syncOnce());
  expect(after(first, 'refresh-brands', 'done')).toEqual([{ type: 'brand', brandId: null }]);
  expect(after(first, 'refresh-account', 'done')).toEqual([{ type: 'credits' }]);
  expect(after(first, 'edits.refresh', 'done')).toEqual([{ type: 'edits', brandId }]);
  expect(after(first, 'export.sync', 'done', 2)).toEqual([
    { type: 'skill', brandId },
    {
      type: 'notify',
      kind: 'skill-updated',
      title: 'New Brand Skill for Feed Co',
      message: 'The latest Brand Skill is unpacked in its folder.',
      brandId,
    },
  ]);

  const folder = engine.store.brands.get(brandId)?.folderName;
  expect(folder).toBeTruthy();
  await fs.promises.mkdir(path.join(h.root, folder as string, 'Logo'), { recursive: true });
  await fs.promises.writeFile(
    path.join(h.root, folder as string, 'Logo', 'mark.png'),
    makePng({ seed: 5 }),
  );
  await fs.promises.writeFile(
    path.join(h.root, folder as string, 'refused.png'),
    makePng({ seed: 6 }),
  );
  h.sim.control.failNext('POST /v1/images/uploads/file', {
    status: 400,
    code: 'UNSUPPORTED_FORMAT',
    message: 'The file is not an image the service takes.',
  });
  const second = await fed(engine, () => engine.syncOnce());
  expect(after(second, 'folder-logo', 'done')).toEqual([{ type: 'brand', brandId }]);
  expect(after(second, 'folder-upload', 'failed')).toEqual([
    {
      type: 'notify',
      kind: 'upload-failed',
      title: 'An upload failed',
      message: `${folder}/refused.png: The file is not an image the service takes.`,
      brandId,
    },
  ]);
});

test('the feed imports no feature’s job kinds', async () => {
  const source = await fs.promises.readFile(
    path.join(import.meta.dirname, '../../main/engine/app/event-feed.ts'),
    'utf8',
  );
  const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
  expect(imports.sort()).toEqual([
    '../../../contract/index.ts',
    '../core/engine.ts',
    '../queue/queue-events.ts',
    '../store/index.ts',
    './event-journal.ts',
  ]);
});

// The image edit as an engine use case, against the simulator on a manual clock: started once,
// followed by the engine through every status the service sends (including `generating`, which
// the interface never named) to its end whoever watches, the spend and the end told as events,
// the result's Library refreshed and its cost in Activity; offline, refused before anything is
// sent; after a restart, a running edit is followed again.
import { afterEach, describe, expect, test } from 'vitest';
import type { EngineEvents } from '../../main/engine/core/engine-events.ts';
import type { Engine } from '../../main/engine/core/engine.ts';
import {
  IMAGE_EDIT_DONE,
  IMAGE_EDIT_FAILED,
  ImageEditRefused,
  imageEditsFeature,
  imageEditsOf,
  planImageEdit,
} from '../../main/engine/images/index.ts';
import { librarySync } from '../../main/engine/library/index.ts';
import { startHarness, type Harness } from '../brands/harness.ts';

const EDIT = 'POST /v1/images/{id}/edit';
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function setUp() {
  h = await startHarness({ manualClock: true, durations: { imageMs: 1_000 } });
  const engine = h.open([librarySync, imageEditsFeature]);
  const brandId = (await h.sim.control.seedBrand({ name: 'Pictures' })).id;
  const imageId = h.sim.control.seedLibrary(brandId, { items: [{ type: 'image' }] })
    .ids[0] as string;
  return { h, engine, brandId, imageId };
}

/** Every `image:updated` status of the engine, in order. */
function statuses(engine: Engine): string[] {
  const seen: string[] = [];
  engine.events.on('image:updated', ({ edit }: EngineEvents['image:updated']) =>
    seen.push(edit.status),
  );
  return seen;
}

describe('image edits followed by the engine', () => {
  test('to completed through generating: events, the spend, the Library asked again, Activity with the cost', async () => {
    const { h, engine, brandId, imageId } = await setUp();
    const seen = statuses(engine);
    const credits: unknown[] = [];
    engine.events.on('credits:changed', (e) => credits.push(e));
    const refresh: string[] = [];
    engine.events.on('library:refresh-wanted', ({ brandId: id }) => refresh.push(id));
    const plan = await planImageEdit(engine, { imageId, brandId, prompt: 'Warmer sky' });
    const started = await imageEditsOf(engine).start(plan);
    expect(started).toMatchObject({ status: 'pending', cost: 1, sourceImageId: imageId });
    expect(credits).toHaveLength(1);
    const finished = imageEditsOf(engine).finished(started.imageId);

    await h.sim.control.advance(500);
    await expect.poll(() => seen).toContain('generating');
    await h.sim.control.advance(500);
    const end = await finished;
    expect(end?.status).toBe('completed');
    expect(seen).toEqual(['pending', 'generating', 'completed']);
    expect(refresh).toEqual([brandId]);
    const done = engine.store.activity.list({ limit: 10 }).find((a) => a.code === IMAGE_EDIT_DONE);
    expect(done?.message).toMatch(/Pictures's Library \(1 credit, 2K\)/);
    expect(imageEditsOf(engine).list(brandId)[0]).toMatchObject({ status: 'completed' });
    // Sent once, followed with the long poll (not one look per second).
    expect(h.sim.control.log({ route: EDIT })).toHaveLength(1);
    expect(h.sim.control.log({ route: 'GET /v1/images/{id}' }).length).toBeLessThan(6);
  });

  test('a failure ends the follow with its advice, told in Activity', async () => {
    const { h, engine, brandId, imageId } = await setUp();
    const plan = await planImageEdit(engine, { imageId, brandId, prompt: 'Something unsafe' });
    const started = await imageEditsOf(engine).start(plan);
    const finished = imageEditsOf(engine).finished(started.imageId);
    await h.sim.control.advance(1_000);
    const end = await finished;
    expect(end).toMatchObject({ status: 'failed', failureReason: 'content_safety' });
    expect(end?.advice).toMatch(/revise the prompt/);
    const failed = engine.store.activity
      .list({ limit: 10 })
      .find((a) => a.code === IMAGE_EDIT_FAILED);
    expect(failed?.message).toMatch(/does not charge a failed edit/);
  });

  test('offline: refused before anything is sent', async () => {
    const { h, engine, brandId, imageId } = await setUp();
    // The balance is known from a check before the service went away.
    await planImageEdit(engine, { imageId, brandId, prompt: 'Warmer sky' });
    h.sim.control.setFaults('/v1/*:reset-before=1');
    const plan = await planImageEdit(engine, { imageId, brandId, prompt: 'Warmer sky' });
    expect(plan.credits?.source).toBe('store');
    const error = await imageEditsOf(engine)
      .start(plan)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageEditRefused);
    expect((error as ImageEditRefused).code).toBe('OFFLINE');
    h.sim.control.clearFaults();
    expect(h.sim.control.log({ route: EDIT })).toHaveLength(0);
  });

  test('a running edit is followed again after a restart', async () => {
    const { h, engine, brandId, imageId } = await setUp();
    const plan = await planImageEdit(engine, { imageId, brandId, prompt: 'Warmer sky' });
    const started = await imageEditsOf(engine).start(plan);
    await h.closeEngine();
    expect(engine.store).toBeDefined();
    const again = h.open([librarySync, imageEditsFeature]);
    await again.start();
    const finished = imageEditsOf(again).finished(started.imageId);
    await h.sim.control.advance(1_000);
    await expect(finished).resolves.toMatchObject({ status: 'completed' });
  });
});

// A started engine follows a brand the service analyses until it is ready or failed, with the
// service's long poll (a handful of requests, not one a second), and a brand that becomes
// ready asks for its Brand Skill at once. A status the interface does not name is still
// running: the follow goes on until the brand settles.
import { afterEach, describe, expect, test } from 'vitest';
import { brandFollowFeature } from '../../main/engine/brands/follow-brand.ts';
import type { EngineEvents } from '../../main/engine/core/engine-events.ts';
import { startHarness, until, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const GET_BRAND = 'GET /v1/brands/{id}';

describe('brands under analysis are followed', () => {
  test('to ready with the long poll; the Brand Skill is asked for at once', async () => {
    h = await startHarness({ manualClock: true });
    const { id } = await h.sim.control.seedBrand({ name: 'Slow Roast', status: 'analyzing' });
    const engine = h.open([brandFollowFeature]);
    const changed: EngineEvents['brand:skill-changed'][] = [];
    engine.events.on('brand:skill-changed', (e) => changed.push(e));
    await engine.start();
    // A first look, then a look the service holds (pending in its log) until the brand settles.
    await until(() => h!.sim.control.log({ route: GET_BRAND }).some((e) => e.status === null));
    expect(engine.store.brands.get(id)?.status).toBe('analyzing');

    await h.sim.control.advance(30_000);
    await until(() => changed.length > 0);
    expect(changed).toEqual([{ brandId: id, reason: 'ready' }]);
    expect(engine.store.brands.get(id)?.status).toBe('ready');
    expect(h.sim.control.log({ route: GET_BRAND }).length).toBeLessThan(6);
  });

  test('a status the interface does not name is still running', async () => {
    h = await startHarness({ manualClock: true });
    const { id } = await h.sim.control.seedBrand({ name: 'Odd One', status: 'reviewing' });
    const engine = h.open([brandFollowFeature]);
    const updated: string[] = [];
    engine.events.on('brand:updated', ({ brand }) => updated.push(brand.status ?? ''));
    await engine.start();
    await until(() => h!.sim.control.log({ route: GET_BRAND }).length > 0);
    h.sim.control.finishBrand(id);
    await until(() => updated.includes('ready'), 15_000);
    expect(engine.store.brands.get(id)?.status).toBe('ready');
  });
});

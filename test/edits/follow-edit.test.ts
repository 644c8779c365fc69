// A started engine follows an edit the service prepares until it leaves `preparing` (polled,
// the interface offering no long poll for edits): the stored edit and an `edits:changed` event
// follow.
import { afterEach, describe, expect, test } from 'vitest';
import { brandEditsFeature } from '../../main/engine/edits/index.ts';
import { startHarness, until, type Harness } from '../brands/harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('edits being prepared are followed', () => {
  test('to awaiting approval, stored and told', async () => {
    h = await startHarness({ manualClock: true, durations: { editPrepareMs: 1_000 } });
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Edited' });
    const { id: editId } = h.sim.control.seedEdit({ brandId, changeSummary: 'Bolder type' });
    const engine = h.open([brandEditsFeature]);
    const told: string[] = [];
    engine.events.on('edits:changed', ({ brandId: id }) => told.push(id));
    await engine.start();
    await until(() => engine.store.edits.get(brandId, editId)?.status === 'preparing');
    // The follow's first look, before the service finishes: only a later look can see the end.
    const GET_EDIT = 'GET /v1/brands/{id}/edits/{editId}';
    await until(() => h!.sim.control.log({ route: GET_EDIT }).length > 0);
    const before = told.length;

    await h.sim.control.advance(1_000);
    await until(() => engine.store.edits.get(brandId, editId)?.status === 'awaiting_approval');
    expect(told.length).toBeGreaterThan(before);
    expect(told.at(-1)).toBe(brandId);
  });
});

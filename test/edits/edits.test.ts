// Brand Edits in the engine, against the simulator: the refresh in the sync pass (and its
// hiding on a service without the endpoint), apply (the Skill-changed event and the export
// it queues), 409 BRAND_EDIT_STALE, 409 BRAND_EDIT_STATE_CONFLICT, unknown states, and the
// offline listing from the store.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiClient, RateGate } from '../../main/engine/api/index.ts';
import {
  applyEdit,
  describeEditState,
  discardEdit,
  editDoc,
  EditActionError,
  editsUnavailableSinceSetting,
  listEdits,
  refreshEditsKind,
  showEdit,
} from '../../main/engine/edits/index.ts';
import { exportSyncKey } from '../../main/engine/export-sync/index.ts';
import { startHarness, type Harness } from '../brands/harness.ts';

const LIST = 'GET /v1/brands/{id}/edits';

async function refusal(work: Promise<unknown>): Promise<EditActionError> {
  const error = await work.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(EditActionError);
  return error as EditActionError;
}

describe('Brand Edits', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  test('the sync pass lists every brand’s edits into the store and reports what waits', async () => {
    const { id: acme } = await h.sim.control.seedBrand({ name: 'Acme Edits' });
    const { id: calm } = await h.sim.control.seedBrand({ name: 'Calm Edits' });
    await h.sim.control.seedBrand({ name: 'Broken', status: 'failed' });
    const waiting = h.sim.control.seedEdit({ brandId: acme, status: 'awaiting_approval' });
    const asking = h.sim.control.seedEdit({ brandId: acme, status: 'input_required' });
    const engine = h.open();
    const report = await engine.syncOnce();
    expect(report.ok).toBe(true);
    const stored = engine.store.edits.list(acme);
    expect(stored.map((e) => [e.id, e.status]).sort()).toEqual(
      [
        [waiting.id, 'awaiting_approval'],
        [asking.id, 'input_required'],
      ].sort(),
    );
    expect(engine.store.edits.list(calm)).toEqual([]);
    expect(report.sections.edits?.summary).toEqual([
      `Brand Edits of Acme Edits: 1 awaiting approval, 1 with a question (brand-sync edits list ${acme}).`,
    ]);
    // A failed brand has no Skill to edit: not asked.
    const listed = h.sim.control.log({ route: LIST }).map((e) => e.path);
    expect(listed.some((p) => p.includes(acme))).toBe(true);
    expect(listed.length).toBe(2);
    // An edit gone from the service leaves the store at the next pass.
    await discardEdit(engine, acme, asking.id);
    h.sim.control.clearLog();
    await engine.syncOnce();
    expect(engine.store.edits.get(acme, asking.id)?.status).toBe('discarded');
  });

  test('apply: stored as applied, the Skill-changed event queues the export sync and an edits refresh', async () => {
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Applying' });
    const edit = h.sim.control.seedEdit({ brandId, status: 'awaiting_approval' });
    const engine = h.open();
    const events: string[] = [];
    const off = engine.events.on('brand:skill-changed', (e) => void events.push(e.reason));
    const applied = await applyEdit(engine, brandId, edit.id);
    off();
    expect(applied.status).toBe('applied');
    expect(events).toEqual(['edit-applied']);
    expect(engine.store.edits.get(brandId, edit.id)?.status).toBe('applied');
    expect(engine.store.jobs.getActiveByKey(exportSyncKey(brandId).key as string)).toBeDefined();
    expect(engine.store.jobs.getActiveByKey(`${refreshEditsKind}:${brandId}`)).toBeDefined();
    await engine.queue.start();
    await engine.queue.whenSettled();
    expect(engine.store.exports.latestInstalled(brandId)?.skillId).toBe(edit.targetSkillId);
  });

  test('409 BRAND_EDIT_STALE: explained with the active Skill, the list refreshed, the export sync asked for', async () => {
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Moving' });
    const first = h.sim.control.seedEdit({ brandId, status: 'awaiting_approval' });
    const second = h.sim.control.seedEdit({ brandId, status: 'awaiting_approval' });
    // A fresh engine whose queue does not run: only the action itself asks the service.
    await h.closeEngine();
    const engine = h.open();
    await applyEdit(engine, brandId, first.id);
    const reasons: string[] = [];
    const off = engine.events.on('brand:skill-changed', (e) => void reasons.push(e.reason));
    const before = h.sim.control.log({ route: LIST }).length;
    const stale = await refusal(applyEdit(engine, brandId, second.id));
    off();
    expect(stale.code).toBe('BRAND_EDIT_STALE');
    expect(stale.message).toContain(`its active Skill is now ${first.targetSkillId}`);
    expect(stale.data).toMatchObject({
      editId: second.id,
      status: 'stale',
      activeSkillId: first.targetSkillId,
    });
    expect(reasons).toEqual(['edit-stale']);
    expect(h.sim.control.log({ route: LIST }).length).toBe(before + 1);
    expect(engine.store.edits.get(brandId, second.id)?.status).toBe('stale');
  });

  test('409 BRAND_EDIT_STATE_CONFLICT: the edit’s real state from the answer, for discard and apply', async () => {
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Conflicted' });
    const done = h.sim.control.seedEdit({ brandId, status: 'applied' });
    const asking = h.sim.control.seedEdit({ brandId, status: 'input_required' });
    const engine = h.open();
    await listEdits(engine, brandId);
    const discard = await refusal(discardEdit(engine, brandId, done.id));
    expect(discard.code).toBe('BRAND_EDIT_STATE_CONFLICT');
    expect(discard.message).toBe(
      `Edit ${done.id} cannot be discarded: it is applied (the candidate is the active brand); an applied edit cannot be taken back by discarding it.`,
    );
    expect(discard.data).toMatchObject({ editId: done.id, status: 'applied' });
    const apply = await refusal(applyEdit(engine, brandId, asking.id));
    expect(apply.message).toMatch(
      /cannot be applied: it is input_required .*; its question needs an answer first\.$/,
    );
    // A discard of a discarded edit returns it (docs/service.md); the store follows.
    await discardEdit(engine, brandId, asking.id);
    expect((await discardEdit(engine, brandId, asking.id)).status).toBe('discarded');
    expect(engine.store.edits.get(brandId, asking.id)?.status).toBe('discarded');
  });

  test('a state nobody named is kept and shown as it is', async () => {
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Novel' });
    const edit = h.sim.control.seedEdit({ brandId, status: 'under_review' });
    const engine = h.open();
    const { edits } = await listEdits(engine, brandId);
    expect(edits.map((e) => e.status)).toEqual(['under_review']);
    const { edit: shown } = await showEdit(engine, brandId, edit.id);
    expect(editDoc(shown).status).toBe('under_review');
    expect(describeEditState('under_review')).toBe(
      '"under_review" (a state Brand Sync does not know)',
    );
    const conflict = await refusal(discardEdit(engine, brandId, edit.id));
    expect(conflict.message).toContain(
      'it is under_review ("under_review" (a state Brand Sync does not know))',
    );
  });

  test('the service unreachable: the listing and an edit come from the store, saying so', async () => {
    const { id: brandId } = await h.sim.control.seedBrand({ name: 'Offline' });
    const edit = h.sim.control.seedEdit({ brandId, status: 'awaiting_approval' });
    const engine = h.open();
    await listEdits(engine, brandId);
    const offline = createApiClient({
      baseUrl: 'http://127.0.0.1:9/v1',
      credentials: { kind: 'api-key', secret: h.key },
      retry: { limit: 0 },
      rateGate: new RateGate(),
    });
    const deps = { store: engine.store, client: offline };
    const listing = await listEdits(deps, brandId);
    expect(listing).toMatchObject({ source: 'store', syncedAt: expect.any(Number) });
    expect(listing.edits.map((e) => e.id)).toEqual([edit.id]);
    expect((await showEdit(deps, brandId, edit.id)).source).toBe('store');
    const unknown = '0d0e0a0d-0000-4000-8000-00000000e0e0';
    await expect(listEdits(deps, unknown)).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
  });
});

describe('a service without the edits endpoint', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  test('the refresh hides itself with one notice; the pass is not a failure; the next pass asks nothing', async () => {
    await h.sim.control.seedBrand({ name: 'One' });
    await h.sim.control.seedBrand({ name: 'Two' });
    h.sim.control.failNext(LIST, { status: 404, code: 'NOT_FOUND', count: 2 });
    const engine = h.open();
    const report = await engine.syncOnce();
    expect(report.ok).toBe(true);
    expect(report.sections.edits?.summary).toEqual(['Brand Edits: not offered by this service.']);
    expect(engine.store.settings.read(editsUnavailableSinceSetting)).toEqual(expect.any(Number));
    const notices = engine.store.activity.list({}).filter((a) => a.code === 'FEATURE_UNAVAILABLE');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.message).toMatch(/does not offer a list of Brand Edits/);
    const asked = h.sim.control.log({ route: LIST }).length;
    await engine.syncOnce();
    expect(h.sim.control.log({ route: LIST }).length).toBe(asked);
    const direct = await listEdits(
      engine,
      (await h.sim.control.seedBrand({ name: 'Three' })).id,
    ).catch((e: unknown) => e);
    // The endpoint answers again (the forced 404s are used up): a direct listing works.
    expect(direct).toMatchObject({ source: 'service' });
  });

  test('a direct listing on a missing endpoint is FEATURE_UNAVAILABLE with a clear message', async () => {
    const { id } = await h.sim.control.seedBrand({ name: 'Four' });
    h.sim.control.failNext(LIST, { status: 404, code: 'NOT_FOUND' });
    const error = await refusal(listEdits(h.open(), id));
    expect(error.code).toBe('FEATURE_UNAVAILABLE');
    expect(error.message).toMatch(/^This service does not offer a list of Brand Edits/);
  });
});

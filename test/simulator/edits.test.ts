// Brand Edits: preparing → awaiting_approval | input_required; apply (→ applied, the candidate
// becomes the active skill), stale (409 BRAND_EDIT_STALE with activeSkillId), discard, and
// 409 BRAND_EDIT_STATE_CONFLICT with {editId, status}.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Sim } from './helpers.ts';
import { expectError, png, start } from './helpers.ts';

let s: Sim;
let brand: { id: string; skillId: string };
beforeEach(async () => {
  s = await start();
  brand = await s.readyBrand();
});
afterEach(() => s.close());

const apply = (id: string) => s.post(`/brands/${brand.id}/edits/${id}/apply`);
const discard = (id: string) => s.post(`/brands/${brand.id}/edits/${id}/discard`);

describe('edit states', () => {
  test('preparing → awaiting_approval → applied: the candidate becomes the active skill', async () => {
    const e = s.control.seedEdit({ brandId: brand.id });
    const got = (await s.get(`/brands/${brand.id}/edits/${e.id}`)).body.data;
    expect(got).toMatchObject({
      status: 'preparing',
      baseSkillId: brand.skillId,
      target: { skillId: e.targetSkillId },
    });
    expect(got.changeSet).toMatchObject({
      schemaVersion: 2,
      baseSkillId: brand.skillId,
      targetSkillId: e.targetSkillId,
    });
    expect(got.changeSet.profileChanges.length).toBeGreaterThan(0);
    expect(got.targetProfile.colors[0].hex).toMatch(/^#/);
    expectError(await apply(e.id), 409, 'BRAND_EDIT_STATE_CONFLICT');
    await s.advance(15_000);
    expect((await s.get(`/brands/${brand.id}/edits/${e.id}`)).body.data.status).toBe(
      'awaiting_approval',
    );
    const applied = await apply(e.id);
    expect(applied.body.data).toMatchObject({ id: e.id, brandId: brand.id, status: 'applied' });
    expect((await s.get(`/brands/${brand.id}`)).body.data.skillId).toBe(e.targetSkillId);
    expect((await apply(e.id)).body.data.status).toBe('applied'); // repeating apply returns it
  });

  test('preparing → input_required with an interaction; it can be discarded', async () => {
    const e = s.control.seedEdit({ brandId: brand.id, preparedStatus: 'input_required' });
    await s.advance(15_000);
    const got = (await s.get(`/brands/${brand.id}/edits/${e.id}`)).body.data;
    expect(got.status).toBe('input_required');
    expect(got.interaction).toMatchObject({
      kind: 'clarification',
      accepts: { text: { minLength: 1, maxLength: 10000 } },
    });
    const d = await discard(e.id);
    expect(d.body.data).toMatchObject({
      status: 'discarded',
      replacement: { discardReason: 'explicit' },
    });
  });

  test('apply after the active skill changed → stale, 409 BRAND_EDIT_STALE with activeSkillId', async () => {
    const e = s.control.seedEdit({ brandId: brand.id, status: 'awaiting_approval' });
    // A logo upload makes a new active skill.
    await s.call('PUT', `/brands/${brand.id}/logo/file`, { body: s.uploadForm(png()) });
    await s.advance(10_000);
    const active = (await s.get(`/brands/${brand.id}`)).body.data.skillId;
    expect(active).not.toBe(brand.skillId);
    const r = await apply(e.id);
    expectError(r, 409, 'BRAND_EDIT_STALE');
    expect(r.body.error.data).toEqual({ editId: e.id, status: 'stale', activeSkillId: active });
    expect((await s.get(`/brands/${brand.id}/edits/${e.id}`)).body.data.status).toBe('stale');
    expect((await s.get(`/brands/${brand.id}`)).body.data.skillId).toBe(active);
    expectError(await apply(e.id), 409, 'BRAND_EDIT_STALE');
  });

  test('applying one edit makes its sibling stale', async () => {
    const a = s.control.seedEdit({ brandId: brand.id, status: 'awaiting_approval' });
    const b = s.control.seedEdit({ brandId: brand.id, status: 'awaiting_approval' });
    expect((await apply(a.id)).status).toBe(200);
    expectError(await apply(b.id), 409, 'BRAND_EDIT_STALE');
  });

  test('discard from preparing cancels it: the candidate is never published', async () => {
    const e = s.control.seedEdit({ brandId: brand.id });
    expect((await discard(e.id)).body.data.status).toBe('discarded');
    await s.advance(15_000);
    expect((await s.get(`/brands/${brand.id}/edits/${e.id}`)).body.data.status).toBe('discarded');
    expect((await s.get(`/brands/${brand.id}`)).body.data.skillId).toBe(brand.skillId);
    expect((await discard(e.id)).body.data.status).toBe('discarded'); // repeating discard returns it
    expectError(await apply(e.id), 409, 'BRAND_EDIT_STATE_CONFLICT');
  });

  test.each(['applied', 'stale'])(
    'discard of a %s edit → 409 BRAND_EDIT_STATE_CONFLICT with {editId, status}',
    async (status) => {
      const e = s.control.seedEdit({ brandId: brand.id, status });
      const r = await discard(e.id);
      expectError(r, 409, 'BRAND_EDIT_STATE_CONFLICT');
      expect(r.body.error.data).toEqual({ editId: e.id, status });
    },
  );

  test('404 BRAND_NOT_FOUND for an unknown brand; 500 INTERNAL_ERROR on demand', async () => {
    const e = s.control.seedEdit({ brandId: brand.id, status: 'awaiting_approval' });
    expectError(
      await s.post(`/brands/00000000-0000-4000-8000-000000000001/edits/${e.id}/apply`),
      404,
      'BRAND_NOT_FOUND',
    );
    expectError(
      await s.post(`/brands/00000000-0000-4000-8000-000000000001/edits/${e.id}/discard`),
      404,
      'BRAND_NOT_FOUND',
    );
    expectError(await apply('00000000-0000-4000-8000-000000000002'), 404, 'BRAND_EDIT_NOT_FOUND');
    s.control.failNext('POST /v1/brands/{id}/edits/{editId}/apply');
    expectError(await apply(e.id), 500, 'INTERNAL_ERROR');
    s.control.failNext('POST /v1/brands/:id/edits/:editId/discard');
    expectError(await discard(e.id), 500, 'INTERNAL_ERROR');
    expect((await apply(e.id)).body.data.status).toBe('applied');
  });
});

describe('listing and waiting', () => {
  test('GET /brands/{id}/edits pages newest first', async () => {
    const ids = [1, 2, 3].map(
      () => s.control.seedEdit({ brandId: brand.id, status: 'awaiting_approval' }).id,
    );
    const p1 = (await s.get(`/brands/${brand.id}/edits`, { query: { limit: 2 } })).body.data;
    expect(p1.items.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    const p2 = (
      await s.get(`/brands/${brand.id}/edits`, { query: { limit: 2, cursor: p1.nextCursor } })
    ).body.data;
    expect(p2).toMatchObject({ hasMore: false, nextCursor: null });
    expect(p2.items.map((e: { id: string }) => e.id)).toEqual([ids[0]]);
    expectError(
      await s.get(`/brands/${brand.id}/edits`, { query: { cursor: '%%%' } }),
      400,
      'INVALID_CURSOR',
    );
  });

  test('GET edit with wait=true waits while preparing', async () => {
    const e = s.control.seedEdit({ brandId: brand.id });
    const pending = s.get(`/brands/${brand.id}/edits/${e.id}`, { query: { wait: 'true' } });
    await s.held('GET /v1/brands/{id}/edits/{editId}');
    await s.advance(15_000);
    expect((await pending).body.data.status).toBe('awaiting_approval');
  });
});

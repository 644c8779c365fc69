// Image edits in the engine, against the simulator: the cost and the balance of the brand's
// workspace before anything is sent, a short balance refused locally (unless unlimited), the
// stored balance when the service cannot tell, the refusals of the service explained, and an
// edit whose answer was lost never sent twice.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ImageEditRefused,
  imageFailureAdvice,
  planImageEdit,
  startImageEdit,
  type ImageEditRequest,
} from '../../main/engine/images/index.ts';
import type { Engine } from '../../main/engine/core/engine.ts';
import { startHarness, type Harness } from '../brands/harness.ts';

let h: Harness;
let engine: Engine;
let brandId: string;
let imageId: string;
const EDIT = 'POST /v1/images/{id}/edit';

beforeAll(async () => {
  h = await startHarness();
  engine = h.open();
  brandId = (await h.sim.control.seedBrand({ name: 'Pictures' })).id;
  imageId = h.sim.control.seedLibrary(brandId, { items: [{ type: 'image' }] }).ids[0] as string;
});
afterAll(async () => h.close());

const request = (extra: Partial<ImageEditRequest> = {}): ImageEditRequest => ({
  imageId,
  brandId,
  prompt: 'Make the sky warmer',
  ...extra,
});

async function refusal(work: Promise<unknown>): Promise<ImageEditRefused> {
  const error = await work.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ImageEditRefused);
  return error as ImageEditRefused;
}

const edits = () => h.sim.control.log({ route: EDIT }).length;

describe('image edits', () => {
  test('2K costs 1 credit, 4K costs 2; the balance is the brand workspace’s, asked now and stored', async () => {
    const team = h.sim.control.addWorkspace({ name: 'Studio', balance: 7 });
    const { id: teamBrand } = await h.sim.control.seedBrand({
      name: 'Team Pictures',
      workspaceId: team.id,
    });
    const plan2k = await planImageEdit(engine, request({ brandId: teamBrand }));
    expect(plan2k).toMatchObject({
      size: '2K',
      cost: 1,
      short: false,
      workspace: { id: team.id, name: 'Studio' },
      credits: { workspaceId: team.id, balance: 7, unlimited: false, source: 'service' },
    });
    expect(engine.store.workspaces.credits(team.id)?.balance).toBe(7);
    const plan4k = await planImageEdit(engine, request({ size: '4K' }));
    expect(plan4k.cost).toBe(2);
  });

  test('a brand record that does not name its workspace: the balance is not checked, the service decides', async () => {
    const team = h.sim.control.addWorkspace({ name: 'Unnamed Studio', balance: 50 });
    const { id: teamBrand } = await h.sim.control.seedBrand({
      name: 'Quiet',
      workspaceId: team.id,
    });
    const teamImage = h.sim.control.seedLibrary(teamBrand, { items: [{ type: 'image' }] })
      .ids[0] as string;
    // The service sent this brand without workspaceId (not null: absent).
    engine.store.brands.upsertFromService({ id: teamBrand, name: 'Quiet', status: 'ready' });
    h.sim.control.setCredits(null, { balance: 0, unlimited: false });
    const plan = await planImageEdit(
      engine,
      request({ brandId: teamBrand, imageId: teamImage, size: '4K' }),
    );
    // Not priced against the personal balance of 0.
    expect(plan).toMatchObject({
      credits: null,
      short: false,
      workspace: { id: null, name: null, known: false },
    });
    const before = edits();
    await expect(startImageEdit(engine, plan)).resolves.toMatchObject({ status: 'pending' });
    expect(edits()).toBe(before + 1);
    expect(h.sim.control.credits(team.id).balance).toBe(48);
  });

  test('a short balance is refused before sending; an unlimited workspace is never short', async () => {
    h.sim.control.setCredits(null, { balance: 1, unlimited: false });
    const plan = await planImageEdit(engine, request({ size: '4K' }));
    expect(plan.short).toBe(true);
    const before = edits();
    const refused = await refusal(startImageEdit(engine, plan));
    expect(refused.code).toBe('INSUFFICIENT_CREDITS');
    expect(refused.message).toBe(
      'This edit costs 2 credits (4K) and your personal workspace has 1 credit; nothing was sent. A 2K edit costs 1 credit.',
    );
    expect(refused.data).toEqual({ required: 2, balance: 1, workspaceId: null });
    expect(edits()).toBe(before);

    h.sim.control.setCredits(null, { balance: 0, unlimited: true });
    const unlimited = await planImageEdit(engine, request({ size: '4K' }));
    expect(unlimited.short).toBe(false);
    const started = await startImageEdit(engine, unlimited);
    expect(started).toMatchObject({ id: expect.any(String), status: 'pending' });
    expect(edits()).toBe(before + 1);
  });

  test('the service cannot tell the balance: the stored one decides; a started edit lowers it', async () => {
    h.sim.control.setCredits(null, { balance: 5, unlimited: false });
    await planImageEdit(engine, request());
    h.sim.control.failNext('GET /v1/credits', { count: 2 });
    const plan = await planImageEdit(engine, request({ size: '4K' }));
    expect(plan.credits).toMatchObject({ balance: 5, source: 'store' });
    await startImageEdit(engine, plan);
    expect(engine.store.workspaces.credits(null)?.balance).toBe(3);
    expect(h.sim.control.credits(null).balance).toBe(3);
  });

  test('the refusals of the service, explained', async () => {
    h.sim.control.setCredits(null, { balance: 5, unlimited: false });
    // The balance went down between the check and the send: the service's 402 with figures.
    const plan = await planImageEdit(engine, request({ size: '4K' }));
    h.sim.control.setCredits(null, { balance: 1 });
    const credits = await refusal(startImageEdit(engine, plan));
    expect(credits.code).toBe('INSUFFICIENT_CREDITS');
    expect(credits.message).toBe(
      'Not enough credits for this edit (it costs 2 credits; the balance is 1); nothing was charged.',
    );

    h.sim.control.setCredits(null, { balance: 5, paymentRequired: true });
    const payment = await refusal(startImageEdit(engine, await planImageEdit(engine, request())));
    expect(payment.code).toBe('PAYMENT_REQUIRED');
    expect(payment.message).toBe(
      `A payment is required before images can be edited: ${h.sim.origin}/billing`,
    );
    h.sim.control.setCredits(null, { paymentRequired: false });

    h.sim.control.setEntitlements(['image-edit']);
    const fourK = await refusal(
      startImageEdit(engine, await planImageEdit(engine, request({ size: '4K' }))),
    );
    expect(fourK.code).toBe('FEATURE_NOT_ENTITLED');
    expect(fourK.message).toBe(
      'Your plan does not include 4K output: use size 2K, or upgrade the plan.',
    );
    const model = await refusal(
      startImageEdit(engine, await planImageEdit(engine, request({ model: 'fast' }))),
    );
    expect(model.code).toBe('BETA_ACCESS_REQUIRED');
    expect(model.message).toMatch(/^Choosing a model needs beta access/);
    h.sim.control.setEntitlements([]);
    const plan2 = await planImageEdit(engine, request());
    const forbidden = await refusal(startImageEdit(engine, plan2));
    expect(forbidden.code).toBe('FORBIDDEN');
    expect(forbidden.message).toBe(
      'Your plan does not include image editing: upgrade the plan to use it.',
    );
    h.sim.control.setEntitlements(['image-edit', '4k', 'model-selection']);
  });

  test('an edit whose answer was lost is not sent again (it would be billed twice)', async () => {
    h.sim.control.setCredits(null, { balance: 5, unlimited: false });
    const plan = await planImageEdit(engine, request());
    h.sim.control.injectFault(EDIT, 'reset-after');
    const before = edits();
    const lost = await refusal(startImageEdit(engine, plan));
    expect(lost.code).toBe('EDIT_OUTCOME_UNKNOWN');
    expect(lost.message).toMatch(/It was not sent again, so as not to pay twice/);
    expect(edits()).toBe(before + 1);
  });

  test('bad input is refused before anything is asked', async () => {
    const before = h.sim.control.log().length;
    for (const [extra, message] of [
      [{ prompt: '' }, /must not be empty/],
      [{ prompt: 'x'.repeat(2001) }, /at most 2000 characters, got 2001/],
      [
        { referenceImageIds: Array.from({ length: 10 }, () => imageId) },
        /At most 9 reference images, got 10/,
      ],
      [{ referenceImageIds: ['ref-1'] }, /reference image ID must be a UUID/],
      [{ imageId: 'img' }, /image ID must be a UUID/],
    ] as [Partial<ImageEditRequest>, RegExp][]) {
      const error = await refusal(planImageEdit(engine, request(extra)));
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.message).toMatch(message);
    }
    expect(h.sim.control.log().length).toBe(before);
  });

  test('a failed image: content_safety advises revising the prompt or the standard model', () => {
    expect(imageFailureAdvice({ status: 'failed', failureReason: 'content_safety' })).toMatch(
      /revise the prompt, or try again with model standard/,
    );
    expect(imageFailureAdvice({ status: 'failed', failureReason: 'something_else' })).toBeNull();
    expect(imageFailureAdvice({ status: 'completed', failureReason: null })).toBeNull();
  });
});

// `images show|edit`, `videos show` and `credits`, the real bin against the simulator: the
// cost shown before an edit, a short balance refused with nothing sent, content_safety
// advice, 402 with its action link, 403 explained, the workspaces' credits (one out of
// reach), and the account-level answers as one clear line each.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSimulator, type Simulator } from '../../simulator/index.ts';
import { runCli, type CliRun } from '../support/run-cli.ts';
import { until } from '../brands/harness.ts';

const KEY = `sk-images-${randomBytes(10).toString('hex')}`;
const EDIT = 'POST /v1/images/{id}/edit';
let sim: Simulator;
let dir: string;
let brandId: string;
let imageId: string;

function run(args: string[], key = KEY): Promise<CliRun> {
  return runCli(
    args,
    {
      HOME: dir,
      BRAND_SYNC_BASE_URL: sim.baseUrl,
      BRAND_SYNC_API_KEY: key,
      BRAND_SYNC_DATA_DIR: path.join(dir, 'data'),
      BRAND_SYNC_ROOT: path.join(dir, 'root'),
    },
    key,
  );
}

const lines = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');
const edits = () => sim.control.log({ route: EDIT }).length;

beforeAll(async () => {
  sim = await startSimulator({ apiKeys: [KEY], speed: 1000, rateLimit: false });
  dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'brand-sync-images-cli-'));
  brandId = (await sim.control.seedBrand({ name: 'Imagery' })).id;
  imageId = sim.control.seedLibrary(brandId, {
    items: [{ type: 'image', width: 1600, height: 900 }],
  }).ids[0] as string;
});
afterAll(async () => {
  await sim?.close();
  if (dir) await fs.promises.rm(dir, { recursive: true, force: true });
});

describe('images', () => {
  test('show: human fields and one --json document', async () => {
    const human = await run(['images', 'show', imageId]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Status:\s+completed$/m);
    expect(human.stdout).toMatch(/^Size:\s+1600×900$/m);
    const json = JSON.parse((await run(['images', 'show', imageId, '--json'])).stdout) as Record<
      string,
      unknown
    >;
    expect(json).toMatchObject({
      id: imageId,
      status: 'completed',
      failureReason: null,
      advice: null,
      aspectRatio: '16:9',
    });
  });

  test('edit: the cost before it runs, the new image, and --wait to completed', async () => {
    sim.control.setCredits(null, { balance: 10, unlimited: false });
    const started = await run([
      'images',
      'edit',
      imageId,
      '--prompt',
      'Warmer light',
      '--brand',
      brandId,
    ]);
    expect(started.code).toBe(0);
    expect(lines(started.stderr)[0]).toBe(
      'This edit costs 1 credit (2K); your personal workspace has 10 credits.',
    );
    const id = /new image ([0-9a-f-]{36})/.exec(started.stdout)?.[1];
    expect(id).toBeDefined();
    expect(started.stdout).toContain(`brand-sync images show ${id} --wait`);
    const waited = await run(['images', 'show', id as string, '--wait', '--json']);
    expect(waited.code).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({
      id,
      status: 'completed',
      actionType: 'edit',
    });

    const big = await run([
      'images',
      'edit',
      imageId,
      '--prompt',
      'Wider sky',
      '--brand',
      brandId,
      '--size',
      '4K',
      '--ref',
      imageId,
      '--wait',
      '--json',
    ]);
    expect(big.code).toBe(0);
    expect(JSON.parse(big.stdout)).toMatchObject({
      status: 'completed',
      width: 4096,
      sourceImageId: imageId,
      cost: { credits: 2, size: '4K', balanceBefore: 9 },
    });
    expect(sim.control.credits(null).balance).toBe(7);
  });

  test('content_safety: exit 1 advising a revised prompt or --model standard; not charged', async () => {
    sim.control.setCredits(null, { balance: 10, unlimited: false });
    const result = await run([
      'images',
      'edit',
      imageId,
      '--prompt',
      'Something unsafe',
      '--brand',
      brandId,
      '--wait',
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^Failure:\s+content_safety$/m);
    expect(lines(result.stderr).at(-1)).toMatch(
      /^brand-sync: image [0-9a-f-]{36} failed \(content_safety\)\. The provider's content filter blocked the prompt: revise the prompt, or try again with model standard/,
    );
    expect(sim.control.credits(null).balance).toBe(10);
  });

  test('a short balance: refused with nothing sent, unless the workspace is unlimited', async () => {
    sim.control.setCredits(null, { balance: 1, unlimited: false });
    const before = edits();
    const refused = await run([
      'images',
      'edit',
      imageId,
      '--prompt',
      'Bigger',
      '--brand',
      brandId,
      '--size',
      '4K',
    ]);
    expect(refused.code).toBe(1);
    expect(lines(refused.stderr)).toEqual([
      'This edit costs 2 credits (4K); your personal workspace has 1 credit.',
      'brand-sync: INSUFFICIENT_CREDITS: This edit costs 2 credits (4K) and your personal workspace has 1 credit; nothing was sent. A 2K edit costs 1 credit.',
    ]);
    expect(edits()).toBe(before);
    sim.control.setCredits(null, { balance: 0, unlimited: true });
    const unlimited = await run([
      'images',
      'edit',
      imageId,
      '--prompt',
      'Bigger',
      '--brand',
      brandId,
      '--size',
      '4K',
    ]);
    expect(unlimited.code).toBe(0);
    expect(lines(unlimited.stderr)[0]).toBe(
      'This edit costs 2 credits (4K); your personal workspace has unlimited credits.',
    );
    expect(edits()).toBe(before + 1);
    sim.control.setCredits(null, { balance: 10, unlimited: false });
  });

  test('402 PAYMENT_REQUIRED with its action link; 403 FEATURE_NOT_ENTITLED and BETA_ACCESS_REQUIRED explained', async () => {
    sim.control.setCredits(null, { balance: 10, paymentRequired: true });
    const payment = await run([
      'images',
      'edit',
      imageId,
      '--prompt',
      'Pay first',
      '--brand',
      brandId,
      '--json',
    ]);
    expect(payment.code).toBe(1);
    expect(lines(payment.stderr).at(-1)).toBe(
      `brand-sync: PAYMENT_REQUIRED: A payment is required before images can be edited: ${sim.origin}/billing`,
    );
    expect(JSON.parse(payment.stdout)).toMatchObject({
      error: { code: 'PAYMENT_REQUIRED', data: { action_url: `${sim.origin}/billing` } },
    });
    sim.control.setCredits(null, { paymentRequired: false });
    sim.control.setEntitlements(['image-edit']);
    const fourK = await run([
      'images',
      'edit',
      imageId,
      '--prompt',
      'Sharper',
      '--brand',
      brandId,
      '--size',
      '4K',
    ]);
    expect(lines(fourK.stderr).at(-1)).toBe(
      'brand-sync: FEATURE_NOT_ENTITLED: Your plan does not include 4K output: use size 2K, or upgrade the plan.',
    );
    const model = await run([
      'images',
      'edit',
      imageId,
      '--prompt',
      'Quicker',
      '--brand',
      brandId,
      '--model',
      'fast',
    ]);
    expect(model.code).toBe(1);
    expect(lines(model.stderr).at(-1)).toMatch(
      /^brand-sync: BETA_ACCESS_REQUIRED: Choosing a model needs beta access/,
    );
    sim.control.setEntitlements(['image-edit', '4k', 'model-selection']);
  });

  test.each([
    ['no --brand', ['--prompt', 'x'], /required option '--brand <brand>' not specified/],
    [
      'an unknown model',
      ['--prompt', 'x', '--brand', 'B', '--model', 'turbo'],
      /argument 'turbo' is invalid\. Allowed choices are fast, standard, pro/,
    ],
    [
      'an unknown size',
      ['--prompt', 'x', '--brand', 'B', '--size', '8K'],
      /argument '8K' is invalid/,
    ],
  ])('edit with %s: exit 2, one line', async (_label, extra, message) => {
    const result = await run(['images', 'edit', imageId, ...extra]);
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  test('an unknown image: IMAGE_NOT_FOUND in one line', async () => {
    const result = await run(['images', 'show', '0d0e0a0d-0000-4000-8000-0000000000aa']);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(/^brand-sync: IMAGE_NOT_FOUND: .*\(No such image\.\)$/),
    ]);
  });
});

describe('videos', () => {
  test('show: the record, human and --json; an unknown video: MEDIA_NOT_FOUND', async () => {
    const videoId = sim.control.seedLibrary(brandId, {
      items: [{ type: 'video', durationMs: 83_000, fileSize: 5 * 1024 * 1024 }],
    }).ids[0] as string;
    const human = await run(['videos', 'show', videoId]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Duration:\s+1:23$/m);
    expect(human.stdout).toMatch(/^File size:\s+5\.0 MiB \(5242880 bytes\)$/m);
    const json = JSON.parse((await run(['videos', 'show', videoId, '--json'])).stdout) as Record<
      string,
      unknown
    >;
    expect(json).toMatchObject({
      id: videoId,
      type: 'video',
      brandId,
      durationMs: 83_000,
      inLibrary: true,
    });
    const unknown = await run(['videos', 'show', '0d0e0a0d-0000-4000-8000-0000000000bb']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^brand-sync: MEDIA_NOT_FOUND: /);
  });
});

describe('credits', () => {
  test('every workspace: personal first, each team, one out of reach told as such', async () => {
    sim.control.setCredits(null, { balance: 1234, unlimited: false });
    const studio = sim.control.addWorkspace({ name: 'Studio', balance: 50 });
    const agency = sim.control.addWorkspace({ name: 'Agency', unlimited: true });
    const human = await run(['credits']);
    expect(human.code).toBe(0);
    expect(lines(human.stdout)).toEqual([
      'Credits of your personal workspace: 1,234',
      `Credits of workspace Studio (${studio.id}): 50`,
      `Credits of workspace Agency (${agency.id}): unlimited`,
    ]);
    // Studio becomes out of reach between the listing and its balance: the others still show.
    sim.control.setFaults('GET /v1/credits:latency=300-300');
    sim.control.clearLog();
    const running = run(['credits', '--json']);
    await until(() =>
      sim.control.log({ route: 'GET /v1/workspaces' }).some((e) => e.status === 200),
    );
    sim.control.addWorkspace({ id: studio.id, name: 'Studio', accessible: false });
    const result = await running;
    sim.control.clearFaults();
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as { workspaces: unknown[] };
    expect(json.workspaces).toEqual([
      {
        workspaceId: null,
        name: 'Personal',
        personal: true,
        balance: 1234,
        unlimited: false,
        error: null,
      },
      expect.objectContaining({
        workspaceId: studio.id,
        balance: null,
        error: { code: 'WORKSPACE_NOT_FOUND', message: expect.any(String) },
      }),
      expect.objectContaining({ workspaceId: agency.id, balance: 0, unlimited: true, error: null }),
    ]);
  });

  test('--workspace of one that is not yours: WORKSPACE_NOT_FOUND explained in one line', async () => {
    const hidden = sim.control.addWorkspace({ name: 'Hidden', accessible: false });
    const result = await run(['credits', '--workspace', hidden.id]);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(
        /^brand-sync: WORKSPACE_NOT_FOUND: .*\(No such workspace, or it is not accessible to you\.\)$/,
      ),
    ]);
  });
});

describe('account-level answers: one clear line each', () => {
  test('401: sign in again', async () => {
    const result = await run(['credits'], `${KEY}-revoked`);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(/^brand-sync: UNAUTHORIZED: .*sign in again/),
    ]);
  });

  test('403 ACCOUNT_BANNED', async () => {
    const banned = `sk-banned-${randomBytes(6).toString('hex')}`;
    sim.control.addApiKey(banned);
    sim.control.ban(banned);
    const result = await run(['images', 'show', imageId], banned);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(/^brand-sync: ACCOUNT_BANNED: .*The account is suspended/),
    ]);
  });

  test('403 FORBIDDEN: plan upgrade', async () => {
    sim.control.setEntitlements([]);
    const result = await run(['images', 'edit', imageId, '--prompt', 'Plan?', '--brand', brandId]);
    sim.control.setEntitlements(['image-edit', '4k', 'model-selection']);
    expect(result.code).toBe(1);
    expect(lines(result.stderr).at(-1)).toBe(
      'brand-sync: FORBIDDEN: Your plan does not include image editing: upgrade the plan to use it.',
    );
  });
});

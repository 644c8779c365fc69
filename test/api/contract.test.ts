// Contract tests of the API client against the simulator over real HTTP: every endpoint
// succeeds, answers the errors the interface document lists for it as typed ApiErrors, and
// every assumed endpoint (docs/service.md) degrades to FEATURE_UNAVAILABLE on 404/405.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fs from 'node:fs';
import type { ApiClient } from '../../main/engine/api/index.ts';
import { apiError, clientFor, png, startSim, tempDir, writeFile } from './helpers.ts';

type Sim = Awaited<ReturnType<typeof startSim>>;

let sim: Sim;
let client: ApiClient;
/** Sends every request once: the errors themselves are under test, not the retries. */
let once: ApiClient;
let dir: string;
let pngFile: string;
let pdfFile: string;
let textFile: string;
const ids = {} as {
  ready: string;
  skillId: string;
  image: string;
  video: string;
  editA: string;
  editB: string;
  editC: string;
  job: string;
  deletable: string;
};
let site = 0;
const website = (): string => `https://site-${++site}-${Date.now()}.example.com`;

beforeAll(async () => {
  sim = await startSim({ manualClock: true });
  client = clientFor(sim);
  once = clientFor(sim, {
    retry: { limit: 0, rateLimitedLimit: 0, baseDelayMs: 1, maxDelayMs: 1 },
  });
  dir = await tempDir();
  pngFile = await writeFile(dir, 'picture.png', png(1));
  pdfFile = await writeFile(dir, 'guide.pdf', '%PDF-1.4\n% a tiny brand guide\n%%EOF\n');
  textFile = await writeFile(dir, 'notes.txt', 'not an image at all');
  const ready = await sim.control.seedBrand({ name: 'Ready', withExport: true });
  ids.ready = ready.id;
  ids.skillId = ready.skillId as string;
  ids.deletable = (await sim.control.seedBrand({ name: 'Doomed' })).id;
  const media = sim.control.seedLibrary(ids.ready, {
    items: [{ type: 'image' }, { type: 'video' }],
  });
  [ids.image, ids.video] = media.ids as [string, string];
  ids.editA = sim.control.seedEdit({ brandId: ids.ready, status: 'awaiting_approval' }).id;
  ids.editB = sim.control.seedEdit({ brandId: ids.ready, status: 'awaiting_approval' }).id;
  ids.editC = sim.control.seedEdit({ brandId: ids.ready, status: 'awaiting_approval' }).id;
  ids.job = (await client.createBrandSkill({ sources: [{ kind: 'website', url: website() }] })).id;
});

afterAll(async () => {
  await sim?.close();
  if (dir) await fs.promises.rm(dir, { recursive: true, force: true });
});

/** Every authenticated endpoint, with a call that succeeds on the fixtures. */
const endpoints: Array<{ route: string; call: (c: ApiClient) => Promise<unknown> }> = [
  { route: 'GET /v1/credits', call: (c) => c.getCredits() },
  { route: 'GET /v1/workspaces', call: (c) => c.listWorkspaces() },
  { route: 'GET /v1/account', call: (c) => c.getAccount() },
  { route: 'GET /v1/brands', call: (c) => c.listBrandsPage() },
  { route: 'GET /v1/brands/{id}', call: (c) => c.getBrand(ids.ready) },
  {
    route: 'POST /v1/brands',
    call: (c) => c.createBrand({ sources: [{ kind: 'website', url: website() }] }),
  },
  { route: 'DELETE /v1/brands/{id}', call: (c) => c.deleteBrand(ids.deletable) },
  {
    route: 'POST /v1/brand-skills',
    call: (c) => c.createBrandSkill({ sources: [{ kind: 'website', url: website() }] }),
  },
  { route: 'GET /v1/brand-skills/{id}', call: (c) => c.getBrandSkill(ids.job) },
  { route: 'DELETE /v1/brand-skills/{id}', call: (c) => c.deleteBrandSkill(ids.job) },
  {
    route: 'PUT /v1/brands/{id}/logo/file',
    call: (c) => c.uploadLogo(ids.ready, { path: pngFile }),
  },
  {
    route: 'POST /v1/images/uploads/file',
    call: (c) => c.uploadImage(ids.ready, { path: pngFile }),
  },
  {
    route: 'POST /v1/images/uploads',
    call: (c) =>
      c.uploadRemoteImage({ imageUrl: 'https://img.example.com/a.png', brandId: ids.ready }),
  },
  {
    route: 'POST /v1/uploads',
    call: (c) => c.stageFile({ path: pdfFile, mimeType: 'application/pdf' }),
  },
  { route: 'POST /v1/brands/{id}/exports', call: (c) => c.requestExport(ids.ready) },
  {
    route: 'GET /v1/brands/{id}/exports/{skillId}',
    call: (c) => c.getExport(ids.ready, ids.skillId),
  },
  { route: 'GET /v1/brands/{id}/library', call: (c) => c.listLibraryPage(ids.ready) },
  { route: 'GET /v1/images/{id}', call: (c) => c.getImage(ids.image) },
  {
    route: 'POST /v1/images/{id}/edit',
    call: (c) => c.editImage(ids.image, { prompt: 'warmer light', brandSessionId: ids.ready }),
  },
  { route: 'GET /v1/videos/{id}', call: (c) => c.getVideo(ids.video) },
  { route: 'GET /v1/brands/{id}/edits', call: (c) => c.listEditsPage(ids.ready) },
  { route: 'GET /v1/brands/{id}/edits/{editId}', call: (c) => c.getEdit(ids.ready, ids.editA) },
  {
    route: 'POST /v1/brands/{id}/edits/{editId}/apply',
    call: (c) => c.applyEdit(ids.ready, ids.editA),
  },
  {
    route: 'POST /v1/brands/{id}/edits/{editId}/discard',
    call: (c) => c.discardEdit(ids.ready, ids.editB),
  },
];

describe('every authenticated endpoint', () => {
  test.each(endpoints)(
    '$route: 401, 403 ACCOUNT_BANNED, 429, then success',
    async ({ route, call }) => {
      const wrongKey = clientFor({ baseUrl: sim.baseUrl, key: 'sk-wrong' });
      const unauthorized = await apiError(call(wrongKey));
      expect(unauthorized).toMatchObject({
        status: 401,
        code: 'UNAUTHORIZED',
        kind: 'auth',
        accountLevel: true,
      });

      sim.control.ban(sim.key);
      try {
        const banned = await apiError(call(client));
        expect(banned).toMatchObject({
          status: 403,
          code: 'ACCOUNT_BANNED',
          kind: 'banned',
          accountLevel: true,
        });
      } finally {
        sim.control.unban(sim.key);
      }

      sim.control.injectFault(route, '429');
      // A client of its own: the pause this 429 sets on its gate must not hold the next test.
      const limited = await apiError(
        call(
          clientFor(sim, {
            retry: { limit: 0, rateLimitedLimit: 0, baseDelayMs: 1, maxDelayMs: 1 },
          }),
        ),
      );
      expect(limited).toMatchObject({
        status: 429,
        code: 'TOO_MANY_REQUESTS',
        kind: 'rate-limited',
        retryable: true,
      });
      expect(limited.retryAfterMs).toBe(1000);

      await call(client); // rejects (and fails the test) unless it succeeds
    },
  );
});

describe('errors each endpoint lists', () => {
  test('GET /credits: a team workspace, 404 WORKSPACE_NOT_FOUND, 500 INTERNAL_SERVER_ERROR', async () => {
    const team = sim.control.addWorkspace({ name: 'Team', balance: 12 });
    await expect(client.getCredits({ workspaceId: team.id })).resolves.toMatchObject({
      balance: 12,
      unlimited: false,
    });
    const missing = await apiError(
      client.getCredits({ workspaceId: '6b7c2f5e-0000-4000-8000-000000000000' }),
    );
    expect(missing).toMatchObject({
      status: 404,
      code: 'WORKSPACE_NOT_FOUND',
      kind: 'client',
      retryable: false,
    });
    sim.control.failNext('GET /v1/credits');
    const failed = await apiError(once.getCredits());
    expect(failed).toMatchObject({
      status: 500,
      code: 'INTERNAL_SERVER_ERROR',
      kind: 'server',
      retryable: true,
    });
    expect(failed.uncertain).toBe(false); // a GET changes nothing
  });

  test('403 FORBIDDEN (plan) and BETA_ACCESS_REQUIRED are told apart', async () => {
    sim.control.setEntitlements(['image-edit']);
    try {
      const beta = await apiError(
        client.editImage(ids.image, { prompt: 'x', brandSessionId: ids.ready, model: 'fast' }),
      );
      expect(beta).toMatchObject({
        status: 403,
        code: 'BETA_ACCESS_REQUIRED',
        kind: 'beta',
        accountLevel: false,
      });
      sim.control.setEntitlements([]);
      const plan = await apiError(
        client.editImage(ids.image, { prompt: 'x', brandSessionId: ids.ready }),
      );
      expect(plan).toMatchObject({
        status: 403,
        code: 'FORBIDDEN',
        kind: 'forbidden',
        accountLevel: false,
      });
    } finally {
      sim.control.setEntitlements(['image-edit', '4k', 'model-selection']);
    }
  });

  test('POST /brand-skills: 400 INVALID_SOURCE, 409 IDEMPOTENCY_CONFLICT, 500 INTERNAL_ERROR', async () => {
    const invalid = await apiError(
      client.createBrandSkill({
        sources: [{ kind: 'file', uploadId: 'c0ffee00-0000-4000-8000-000000000000' }],
      }),
    );
    expect(invalid).toMatchObject({ status: 400, code: 'INVALID_SOURCE', kind: 'client' });

    const key = `conflict-${Date.now()}`;
    await client.createBrandSkill(
      { sources: [{ kind: 'website', url: website() }] },
      { idempotencyKey: key },
    );
    const conflict = await apiError(
      client.createBrandSkill(
        { sources: [{ kind: 'website', url: website() }] },
        { idempotencyKey: key },
      ),
    );
    expect(conflict).toMatchObject({ status: 409, code: 'IDEMPOTENCY_CONFLICT', retryable: false });

    sim.control.failNext('POST /v1/brand-skills');
    const failed = await apiError(
      once.createBrandSkill({ sources: [{ kind: 'website', url: website() }] }),
    );
    expect(failed).toMatchObject({
      status: 500,
      code: 'INTERNAL_ERROR',
      kind: 'server',
      uncertain: true,
    });
  });

  test('GET and DELETE /brand-skills/{id}: a completed job carries its ZIP; a deleted one is gone', async () => {
    const job = await client.createBrandSkill({
      sources: [{ kind: 'website', url: website() }],
      brandName: 'Beta',
    });
    expect(job).toMatchObject({ status: 'pending' });
    sim.control.advance(60_000);
    const done = await client.waitForBrandSkill(job.id, { pollIntervalMs: 1 });
    expect(done.status).toBe('completed');
    expect(done.zip?.url ?? done.zip?.contentBase64).toBeTruthy();
    await client.deleteBrandSkill(job.id);
    expect(await apiError(client.getBrandSkill(job.id))).toMatchObject({ status: 404 });
  });

  test('POST /brands: 409 IDEMPOTENCY_CONFLICT for a reused key with another body; the duplicate answer', async () => {
    const prepared = client.prepareBrandCreation({
      sources: [{ kind: 'website', url: website() }],
    });
    await client.sendBrandCreation(prepared);
    const conflict = await apiError(
      client.sendBrandCreation({
        ...prepared,
        body: { ...prepared.body, instructions: 'different' },
      }),
    );
    expect(conflict).toMatchObject({ status: 409, code: 'IDEMPOTENCY_CONFLICT' });

    const { duplicateBrandsOf } = await import('../../main/engine/api/index.ts');
    const same = prepared.body.sources[0] as { url: string };
    const duplicate = await apiError(
      client.createBrand({ sources: [{ kind: 'website', url: same.url }] }),
    );
    expect(duplicateBrandsOf(duplicate)?.length).toBe(1);
    const allowed = await client.createBrand({
      sources: [{ kind: 'website', url: same.url }],
      allowDuplicate: true,
    });
    expect(allowed.status).toBe('analyzing');
  });

  test('DELETE /brands/{id}: a second delete answers 404 BRAND_NOT_FOUND', async () => {
    const { id } = await sim.control.seedBrand({ name: 'Twice' });
    await expect(client.deleteBrand(id)).resolves.toMatchObject({ id, name: 'Twice' });
    expect(await apiError(client.deleteBrand(id))).toMatchObject({
      status: 404,
      code: 'BRAND_NOT_FOUND',
    });
    expect(await apiError(client.getBrand(id))).toMatchObject({
      status: 404,
      code: 'BRAND_NOT_FOUND',
    });
  });

  test('PUT /brands/{id}/logo/file: 400 INVALID_LOGO, 404 BRAND_NOT_FOUND', async () => {
    expect(await apiError(client.uploadLogo(ids.ready, { path: textFile }))).toMatchObject({
      status: 400,
      code: 'INVALID_LOGO',
    });
    const gone = '0d0e0a0d-0000-4000-8000-000000000000';
    expect(await apiError(client.uploadLogo(gone, { path: pngFile }))).toMatchObject({
      status: 404,
      code: 'BRAND_NOT_FOUND',
    });
  });

  test('PUT logo signed: no key sent, 400 INVALID_LOGO, 401 INVALID_UPLOAD_TOKEN, 404 BRAND_NOT_FOUND', async () => {
    const noKey = clientFor({ baseUrl: sim.baseUrl, key: 'sk-not-accepted' });
    const first = sim.control.issueUploadToken({ kind: 'logo', brandId: ids.ready, key: sim.key });
    await expect(
      noKey.uploadLogoSigned(ids.ready, first.token, { path: pngFile }),
    ).resolves.toMatchObject({
      id: ids.ready,
    });
    const reused = await apiError(
      noKey.uploadLogoSigned(ids.ready, first.token, { path: pngFile }),
    );
    expect(reused).toMatchObject({
      status: 401,
      code: 'INVALID_UPLOAD_TOKEN',
      kind: 'client',
      accountLevel: false,
    });

    const second = sim.control.issueUploadToken({ kind: 'logo', brandId: ids.ready, key: sim.key });
    expect(
      await apiError(noKey.uploadLogoSigned(ids.ready, second.token, { path: textFile })),
    ).toMatchObject({
      status: 400,
      code: 'INVALID_LOGO',
    });

    const { id: doomed } = await sim.control.seedBrand({ name: 'Logo gone' });
    const third = sim.control.issueUploadToken({ kind: 'logo', brandId: doomed, key: sim.key });
    await client.deleteBrand(doomed);
    expect(
      await apiError(noKey.uploadLogoSigned(doomed, third.token, { path: pngFile })),
    ).toMatchObject({
      status: 404,
      code: 'BRAND_NOT_FOUND',
    });
  });

  test('POST /images/uploads/file: existing on the same bytes, 400 UNSUPPORTED_FORMAT, 422 BRAND_NOT_FOUND', async () => {
    const file = await writeFile(dir, 'fresh.png', png(77));
    const first = await client.uploadImage(ids.ready, { path: file });
    const again = await client.uploadImage(ids.ready, { path: file });
    expect(first.existing).toBe(false);
    expect(again).toMatchObject({ id: first.id, existing: true });
    expect(await apiError(client.uploadImage(ids.ready, { path: textFile }))).toMatchObject({
      status: 400,
      code: 'UNSUPPORTED_FORMAT',
    });
    const unknown = '0d0e0a0d-0000-4000-8000-000000000001';
    expect(await apiError(client.uploadImage(unknown, { path: pngFile }))).toMatchObject({
      status: 422,
      code: 'BRAND_NOT_FOUND',
    });
  });

  test('POST /images/uploads/file/signed: no key sent, 400 UNSUPPORTED_FORMAT, 401 INVALID_UPLOAD_TOKEN', async () => {
    const noKey = clientFor({ baseUrl: sim.baseUrl, key: 'sk-not-accepted' });
    const token = sim.control.issueUploadToken({
      kind: 'image',
      brandId: ids.ready,
      key: sim.key,
    }).token;
    await expect(
      noKey.uploadImageSigned(token, { path: await writeFile(dir, 's.png', png(5)) }),
    ).resolves.toMatchObject({ existing: false });
    expect(await apiError(noKey.uploadImageSigned(token, { path: pngFile }))).toMatchObject({
      status: 401,
      code: 'INVALID_UPLOAD_TOKEN',
    });
    const other = sim.control.issueUploadToken({
      kind: 'image',
      brandId: ids.ready,
      key: sim.key,
    }).token;
    expect(await apiError(noKey.uploadImageSigned(other, { path: textFile }))).toMatchObject({
      status: 400,
      code: 'UNSUPPORTED_FORMAT',
    });
  });

  test('uploads over 10 MB are refused before anything is sent', async () => {
    const big = await writeFile(dir, 'big.png', Buffer.concat([png(3), Buffer.alloc(10_000_001)]));
    const before = sim.control.log().length;
    expect(await apiError(client.uploadImage(ids.ready, { path: big }))).toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect(sim.control.log().length).toBe(before);
  });

  test('POST /brands/{id}/exports: 404 BRAND_NOT_FOUND, 409 BRAND_SKILL_UNAVAILABLE, 500 INTERNAL_ERROR', async () => {
    const gone = '0d0e0a0d-0000-4000-8000-000000000002';
    expect(await apiError(client.requestExport(gone))).toMatchObject({
      status: 404,
      code: 'BRAND_NOT_FOUND',
    });
    const busy = await sim.control.seedBrand({ name: 'Still analyzing', status: 'analyzing' });
    expect(await apiError(client.requestExport(busy.id))).toMatchObject({
      status: 409,
      code: 'BRAND_SKILL_UNAVAILABLE',
    });
    sim.control.failNext('POST /v1/brands/{id}/exports');
    expect(await apiError(once.requestExport(ids.ready))).toMatchObject({
      status: 500,
      code: 'INTERNAL_ERROR',
      uncertain: true,
    });
  });

  test('GET /brands/{id}/library: pages until hasMore is false; 404 BRAND_NOT_FOUND', async () => {
    const { id } = await sim.control.seedBrand({ name: 'Big library' });
    sim.control.seedLibrary(id, { items: Array.from({ length: 7 }, () => ({ type: 'image' })) });
    const pages = [];
    for await (const page of client.libraryPages(id, { limit: 3 })) pages.push(page.items.length);
    expect(pages).toEqual([3, 3, 1]);
    const items = [];
    for await (const item of client.library(id, { limit: 2, type: 'image' })) items.push(item.id);
    expect(new Set(items).size).toBe(7);
    const gone = '0d0e0a0d-0000-4000-8000-000000000003';
    expect(await apiError(client.listLibraryPage(gone))).toMatchObject({
      status: 404,
      code: 'BRAND_NOT_FOUND',
    });
  });

  test('GET /images/{id}: 404 IMAGE_NOT_FOUND; GET /videos/{id}: 404 MEDIA_NOT_FOUND', async () => {
    const gone = '0d0e0a0d-0000-4000-8000-000000000004';
    expect(await apiError(client.getImage(gone))).toMatchObject({
      status: 404,
      code: 'IMAGE_NOT_FOUND',
    });
    expect(await apiError(client.getVideo(gone))).toMatchObject({
      status: 404,
      code: 'MEDIA_NOT_FOUND',
    });
    await expect(client.getVideo(ids.video)).resolves.toMatchObject({
      id: ids.video,
      type: 'video',
    });
  });

  test('apply: 404 BRAND_NOT_FOUND, 409 BRAND_EDIT_STALE with the active Skill, 500 INTERNAL_ERROR', async () => {
    const gone = '0d0e0a0d-0000-4000-8000-000000000005';
    expect(await apiError(client.applyEdit(gone, ids.editC))).toMatchObject({
      status: 404,
      code: 'BRAND_NOT_FOUND',
    });
    // editA was applied by the endpoint test: editC, prepared on the old Skill, is now stale.
    const stale = await apiError(client.applyEdit(ids.ready, ids.editC));
    expect(stale).toMatchObject({ status: 409, code: 'BRAND_EDIT_STALE' });
    const brand = await client.getBrand(ids.ready);
    expect(stale.data).toMatchObject({
      editId: ids.editC,
      status: 'stale',
      activeSkillId: brand.skillId,
    });
    sim.control.failNext('POST /v1/brands/{id}/edits/{editId}/apply');
    expect(await apiError(once.applyEdit(ids.ready, ids.editA))).toMatchObject({
      status: 500,
      code: 'INTERNAL_ERROR',
    });
    // Repeating apply on an applied edit returns it.
    await expect(client.applyEdit(ids.ready, ids.editA)).resolves.toMatchObject({
      status: 'applied',
    });
  });

  test('discard: 404 BRAND_NOT_FOUND, 409 BRAND_EDIT_STATE_CONFLICT with the state, 500 INTERNAL_ERROR', async () => {
    const gone = '0d0e0a0d-0000-4000-8000-000000000006';
    expect(await apiError(client.discardEdit(gone, ids.editB))).toMatchObject({
      status: 404,
      code: 'BRAND_NOT_FOUND',
    });
    const conflict = await apiError(client.discardEdit(ids.ready, ids.editA));
    expect(conflict).toMatchObject({ status: 409, code: 'BRAND_EDIT_STATE_CONFLICT' });
    expect(conflict.data).toMatchObject({ editId: ids.editA, status: 'applied' });
    sim.control.failNext('POST /v1/brands/{id}/edits/{editId}/discard');
    expect(await apiError(once.discardEdit(ids.ready, ids.editB))).toMatchObject({
      status: 500,
      code: 'INTERNAL_ERROR',
    });
    await expect(client.discardEdit(ids.ready, ids.editB)).resolves.toMatchObject({
      status: 'discarded',
    });
  });

  test('Brand Edits are listed page by page and read one by one', async () => {
    const edits = [];
    for await (const edit of client.edits(ids.ready, { limit: 1 })) edits.push(edit.id);
    expect(new Set(edits)).toEqual(new Set([ids.editA, ids.editB, ids.editC]));
    await expect(client.getEdit(ids.ready, ids.editC)).resolves.toMatchObject({
      id: ids.editC,
      status: 'stale',
    });
  });

  test('staged files become brand sources; the brand list pages', async () => {
    const staged = await client.stageFile({ path: pdfFile, mimeType: 'application/pdf' });
    const created = await client.createBrand({
      sources: [
        { kind: 'website', url: website() },
        { kind: 'pdf', uploadId: staged.id },
      ],
    });
    const listed = [];
    for await (const brand of client.brands({ limit: 2 })) listed.push(brand.id);
    expect(listed).toContain(created.id);
    expect(new Set(listed).size).toBe(listed.length);
  });
});

describe('assumed endpoints degrade cleanly when the service lacks them', () => {
  const assumed: Array<{ route: string; call: (c: ApiClient) => Promise<unknown> }> = [
    { route: 'GET /v1/workspaces', call: (c) => c.listWorkspaces() },
    { route: 'GET /v1/account', call: (c) => c.getAccount() },
    { route: 'GET /v1/brands/{id}/edits', call: (c) => c.listEditsPage(ids.ready) },
    { route: 'GET /v1/brands/{id}/edits/{editId}', call: (c) => c.getEdit(ids.ready, ids.editA) },
    {
      route: 'POST /v1/images/uploads',
      call: (c) =>
        c.uploadRemoteImage({ imageUrl: 'https://img.example.com/b.png', brandId: ids.ready }),
    },
    {
      route: 'POST /v1/uploads',
      call: (c) => c.stageFile({ path: pdfFile, mimeType: 'application/pdf' }),
    },
    {
      route: 'POST /v1/images/{id}/edit',
      call: (c) => c.editImage(ids.image, { prompt: 'x', brandSessionId: ids.ready }),
    },
  ];

  test.each(assumed)(
    '$route: 404 or 405 → FEATURE_UNAVAILABLE, not retried',
    async ({ route, call }) => {
      for (const status of [404, 405]) {
        const before = sim.control.log({ route }).length;
        sim.control.failNext(route, {
          status,
          code: status === 404 ? 'NOT_FOUND' : 'METHOD_NOT_ALLOWED',
        });
        const error = await apiError(call(client));
        expect(error).toMatchObject({
          code: 'FEATURE_UNAVAILABLE',
          kind: 'client',
          retryable: false,
          status,
        });
        expect(error.featureUnavailable).toBe(true);
        expect(error.message).toContain('does not offer');
        expect(sim.control.log({ route }).length).toBe(before + 1);
      }
    },
  );

  test('a resource 404 on an assumed endpoint stays a resource error', async () => {
    const gone = '0d0e0a0d-0000-4000-8000-000000000007';
    const error = await apiError(client.listEditsPage(gone));
    expect(error).toMatchObject({
      status: 404,
      code: 'BRAND_NOT_FOUND',
      featureUnavailable: false,
    });
  });

  test('a documented endpoint answering a bare 404 is not called "unavailable"', async () => {
    sim.control.failNext('GET /v1/brands/{id}', { status: 404, code: 'NOT_FOUND' });
    expect(await apiError(client.getBrand(ids.ready))).toMatchObject({
      code: 'NOT_FOUND',
      featureUnavailable: false,
    });
  });
});

/* eslint-disable @typescript-eslint/no-explicit-any -- the answers are JSON, checked field by field */
// Every query and command of the contract through the HTTP bridge against the simulator's
// demo data: its success and its error shape ({ok: false, error: {code, message, retryable}}),
// inputs refused at the boundary with zod's words, and the key in no answer.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makePng } from '../folder-parts/fixtures.ts';
import { KEY, startBridge, until, type Bridge } from './harness.ts';

let b: Bridge;
let northwind: string;

beforeAll(async () => {
  b = await startBridge();
  // The engine's first pass: brands listed, folders made, Libraries mirrored, Skills installed.
  northwind = await until(async () => {
    const status = await b.ok('status');
    const brand = status.brands.find((x: any) => x.name === 'Northwind Coffee');
    return brand?.skill.installedSkillId && brand.library.items > 0 ? brand.id : undefined;
  }, 'the first sync of the demo brands');
});

afterAll(async () => {
  await b?.close();
});

function expectFailure(result: { status: number; json: any }, status: number, code: string) {
  expect(result.status).toBe(status);
  expect(result.json.ok).toBe(false);
  expect(result.json.error.code).toBe(code);
  expect(typeof result.json.error.message).toBe('string');
  expect(result.json.error.message.length).toBeGreaterThan(10);
  expect(typeof result.json.error.retryable).toBe('boolean');
}

describe('queries', () => {
  test('session: signed in, how and where; never the key', async () => {
    const session = await b.ok('session');
    expect(session).toMatchObject({
      signedIn: true,
      authKind: 'api-key',
      source: 'environment',
      baseUrl: b.sim.baseUrl,
      problem: null,
    });
    expectFailure(await b.call('session', { extra: 1 }), 400, 'VALIDATION_ERROR');
  });

  test('status: brands with status, failure advice, Skill on disk, queue, connection, credits', async () => {
    const status = await b.ok('status');
    const names = status.brands.map((x: any) => x.name);
    expect(names).toEqual(expect.arrayContaining(['Northwind Coffee', 'Lumen Labs']));
    const failed = status.brands.find((x: any) => x.status === 'failed');
    expect(failed.failure.advice).toMatch(/\w+/);
    const nw = status.brands.find((x: any) => x.id === northwind);
    expect(nw.folderPath).toBe(path.join(b.root, 'Northwind Coffee'));
    expect(nw.logo).toMatchObject({ area: 'skill', brandId: northwind });
    expect(nw.pendingEdits).toBeGreaterThanOrEqual(1);
    expect(status.connection.online).toBe(true);
    expect(status.credits.find((c: any) => c.personal)).toMatchObject({
      balance: 120,
      unlimited: false,
    });
  });

  test('credits, brands and brand (by ID or folder name); an unknown brand is named', async () => {
    const { credits } = await b.ok('credits');
    expect(credits.map((c: any) => c.name)).toEqual(expect.arrayContaining(['Studio North']));
    const { brands } = await b.ok('brands');
    expect(brands.find((x: any) => x.id === northwind).url).toBe(
      'https://northwind-coffee.example.com',
    );
    expect((await b.ok('brand', { brandId: 'Northwind Coffee' })).id).toBe(northwind);
    const unknown = await b.call('brand', { brandId: 'Nowhere Inc' });
    expectFailure(unknown, 422, 'BRAND_UNKNOWN');
    expect(unknown.json.error.message).toContain('Nowhere Inc');
    expectFailure(await b.call('brand', { brandId: '' }), 400, 'VALIDATION_ERROR');
  });

  test('library: pages from the mirror, type filter, text search, cursor; media: one item', async () => {
    const all = await b.ok('library', { brandId: northwind });
    expect(all.total).toBe(5);
    expect(all.types.map((t: any) => t.type).sort()).toEqual(['audio', 'image', 'video']);
    const images = await b.ok('library', { brandId: northwind, type: 'image' });
    expect(images.items.every((i: any) => i.type === 'image')).toBe(true);
    expect(images.total).toBe(3);
    const found = await b.ok('library', { brandId: northwind, search: 'latte' });
    expect(found.items.map((i: any) => i.description)).toEqual(['Latte art close-up']);
    const first = await b.ok('library', { brandId: northwind, limit: 2 });
    const second = await b.ok('library', {
      brandId: northwind,
      limit: 2,
      cursor: first.nextCursor,
    });
    expect(first.items.length).toBe(2);
    expect(second.items[0].id).not.toBe(first.items[0].id);
    const video = all.items.find((i: any) => i.type === 'video');
    expect(video.durationMs).toBe(42_000);
    expect(await b.ok('media', { itemId: video.id })).toMatchObject({
      id: video.id,
      type: 'video',
      file: { area: 'media' },
    });
    expectFailure(await b.call('media', { itemId: 'no-such-item' }), 422, 'NOT_FOUND');
    expectFailure(
      await b.call('library', { brandId: northwind, limit: 100_000 }),
      400,
      'VALIDATION_ERROR',
    );
    expectFailure(
      await b.call('library', { brandId: northwind, cursor: 'garbage' }),
      422,
      'INVALID_CURSOR',
    );
  });

  test('skill: the unpacked Brand Skill as a tree with its profile; skillFile: one file, never outside', async () => {
    const skill = await b.ok('skill', { brandId: northwind });
    expect(skill.installed).toBe(true);
    expect(skill.tree.map((e: any) => e.path)).toEqual(
      expect.arrayContaining(['SKILL.md', 'guidelines', 'guidelines/voice.md']),
    );
    expect(skill.profile.colors.length).toBeGreaterThan(0);
    expect(skill.profile.colors[0].hex).toMatch(/^#[0-9a-f]{6}$/i);
    expect(skill.profile.fonts.map((f: any) => f.role)).toEqual(
      expect.arrayContaining(['heading', 'body']),
    );
    const file = await b.ok('skillFile', { brandId: northwind, path: 'SKILL.md' });
    expect(file.mimeType).toBe('text/markdown');
    expect(file.text).toContain('# Northwind Coffee');
    for (const bad of ['../brand-sync.db', 'guidelines/../../x', '/etc/passwd']) {
      expectFailure(await b.call('skillFile', { brandId: northwind, path: bad }), 422, 'NOT_FOUND');
    }
  });

  test('files: a dropped image from waiting to uploaded, with its state in words', async () => {
    await writeFile(
      path.join(b.root, 'Northwind Coffee', 'bridge-drop.png'),
      makePng({ seed: 31 }),
    );
    const file = await until(async () => {
      const doc = await b.ok('files', { brandId: 'Northwind Coffee' });
      return doc.files.find((f: any) => f.path === 'bridge-drop.png' && f.state === 'uploaded');
    }, 'the dropped file to upload');
    expect(file.detail).toMatch(/^image [0-9a-f-]{36}$/);
    expectFailure(await b.call('files', { state: 'sideways' }), 422, 'INVALID_INPUT');
  });

  test('activity: the queue, the jobs with their subject, the log', async () => {
    const activity = await b.ok('activity', { limit: 20 });
    expect(activity.queue.userPaused).toBe(false);
    expect(activity.done.length).toBeGreaterThan(0);
    expect(activity.done[0]).toMatchObject({
      area: expect.any(String),
      subject: expect.any(String),
      state: 'done',
    });
    expectFailure(await b.call('activity', { limit: 0 }), 400, 'VALIDATION_ERROR');
  });

  test('settings: read, changed and kept; start at login refused with its reason in a browser', async () => {
    const settings = await b.ok('settings');
    expect(settings).toMatchObject({
      syncRoot: b.root,
      syncRootFixed: true,
      theme: 'system',
      startAtLogin: { supported: false, reason: 'not in a browser' },
    });
    const changed = await b.ok('updateSettings', { theme: 'dark', skillVersionsKept: 5 });
    expect(changed).toMatchObject({ theme: 'dark', skillVersionsKept: 5 });
    expect((await b.ok('settings')).theme).toBe('dark');
    expectFailure(await b.call('updateSettings', { startAtLogin: true }), 422, 'NOT_SUPPORTED');
    expectFailure(await b.call('updateSettings', { syncRoot: '/elsewhere' }), 422, 'INVALID_INPUT');
    expectFailure(await b.call('updateSettings', { theme: 'sepia' }), 400, 'VALIDATION_ERROR');
    const cleared = await b.ok('clearMediaCache');
    expect(cleared.mediaCache.usedBytes).toBe(0);
  });

  test('edits and edit: the change set; image and imageEditQuote', async () => {
    const { edits } = await b.ok('edits', { brandId: northwind });
    const waiting = edits.find((e: any) => e.status === 'awaiting_approval');
    expect(waiting.profileChanges.length + waiting.markdownChanges.length).toBeGreaterThan(0);
    const one = await b.ok('edit', { brandId: northwind, editId: waiting.id });
    expect(one).toMatchObject({ id: waiting.id, source: 'service' });
    expectFailure(
      await b.call('edit', { brandId: northwind, editId: 'not-a-uuid' }),
      400,
      'VALIDATION_ERROR',
    );
    const quote = await b.ok('imageEditQuote', { brandId: northwind, size: '4K' });
    expect(quote).toMatchObject({ cost: 2, balance: 120, enough: true, workspace: { id: null } });
    expectFailure(
      await b.call('imageEditQuote', { brandId: northwind, size: '8K' }),
      422,
      'INVALID_INPUT',
    );
    const { items } = await b.ok('library', { brandId: northwind, type: 'image' });
    const image = await b.ok('image', { imageId: items[0].id });
    expect(image.id).toBe(items[0].id);
  });
});

describe('commands', () => {
  test('answerEdit within its bounds; applyEdit brings the new Skill; discardEdit; a conflict explained', async () => {
    const { edits } = await b.ok('edits', { brandId: northwind });
    const asking = edits.find((e: any) => e.status === 'input_required');
    const interactionId = asking.interaction.id;
    expectFailure(
      await b.call('answerEdit', {
        brandId: northwind,
        editId: asking.id,
        interactionId,
        text: '',
      }),
      422,
      'INVALID_INPUT',
    );
    const answered = await b.ok('answerEdit', {
      brandId: northwind,
      editId: asking.id,
      interactionId,
      text: 'Yes, both.',
    });
    expect(answered.edit.status).toBe('preparing');
    const waiting = edits.find((e: any) => e.status === 'awaiting_approval');
    const applied = await b.ok('applyEdit', { brandId: northwind, editId: waiting.id });
    expect(applied.skill).toMatchObject({ ok: true, outcome: 'installed' });
    expect((await b.ok('skill', { brandId: northwind })).skillId).toBe(applied.skill.skillId);
    const discarded = await b.ok('discardEdit', { brandId: northwind, editId: asking.id });
    expect(discarded.edit.status).toBe('discarded');
    expectFailure(
      await b.call('discardEdit', { brandId: northwind, editId: waiting.id }),
      422,
      'BRAND_EDIT_STATE_CONFLICT',
    );
  });

  test('pause and resume: the queue says so, the activity log says why', async () => {
    expect((await b.ok('pause')).userPaused).toBe(true);
    const activity = await b.ok('activity', {});
    expect(activity.log[0]).toMatchObject({ code: 'PAUSED' });
    await b.ok('syncNow');
    const waiting = await until(
      async () => (await b.ok('activity', {})).active.find((j: any) => j.state === 'queued'),
      'a queued job',
    );
    expect(waiting.waiting).toMatchObject({ code: 'PAUSED', message: 'Paused by you' });
    const cancelled = await b.ok('cancelJob', { jobId: waiting.id });
    expect(cancelled.state).toBe('cancelled');
    const retried = await b.ok('retryJob', { jobId: waiting.id });
    expect(retried.state).toBe('queued');
    expectFailure(await b.call('cancelJob', { jobId: 999_999 }), 422, 'NOT_FOUND');
    expectFailure(await b.call('retryJob', { jobId: -1 }), 400, 'VALIDATION_ERROR');
    expect((await b.ok('resume')).userPaused).toBe(false);
  });

  test('createBrand: started and named; refused sources said; deleteBrand keeps the folder', async () => {
    expectFailure(await b.call('createBrand', { website: 'ftp://x' }), 400, 'VALIDATION_ERROR');
    const duplicate = await b.call('createBrand', {
      website: 'https://northwind-coffee.example.com',
    });
    expectFailure(duplicate, 422, 'DUPLICATE_BRAND');
    b.sim.control.setDurations({ brandAnalysisMs: 400 });
    const from = b.app.journal.lastSeq;
    const created = await b.ok('createBrand', {
      website: 'https://acme-bridge.example.com',
      instructions: 'Bold.',
    });
    expect(created.brandId).toMatch(/^[0-9a-f-]{36}$/);
    // Followed until it settles: ready now, not at the next brand listing minutes later.
    await until(
      async () =>
        (await b.ok('status')).brands.find((x: any) => x.id === created.brandId)?.status ===
        'ready',
      'the new brand to be ready',
    );
    const notices = b.app.journal.since(from).events.filter((e) => e.type === 'notify');
    expect(notices).toContainEqual(
      expect.objectContaining({ kind: 'brand-ready', brandId: created.brandId }),
    );
    const lumen = (await b.ok('status')).brands.find((x: any) => x.name === 'Lumen Labs');
    const deleted = await b.ok('deleteBrand', { brandId: lumen.id });
    expect(deleted).toMatchObject({ id: lumen.id, folderKept: path.join(b.root, 'Lumen Labs') });
    expectFailure(await b.call('deleteBrand', { brandId: lumen.id }), 422, 'BRAND_NOT_FOUND');
  });

  test('addFiles: dropped onto the window, copied into the folder under a free name, then uploaded', async () => {
    const png = makePng({ seed: 33 }).toString('base64');
    const first = await b.ok('addFiles', {
      brandId: northwind,
      files: [{ name: 'window-drop.png', dataBase64: png }],
    });
    const second = await b.ok('addFiles', {
      brandId: northwind,
      files: [{ name: 'window-drop.png', dataBase64: png }],
    });
    expect(first.added[0].name).toBe('window-drop.png');
    expect(second.added[0].name).toBe('window-drop (2).png');
    await until(async () => {
      const doc = await b.ok('files', { brandId: northwind });
      return doc.files.find((f: any) => f.path === 'window-drop.png' && f.state === 'uploaded');
    }, 'the dropped file to upload');
    for (const name of ['../escape.png', '.hidden.png', 'a/b.png']) {
      const refused = await b.call('addFiles', {
        brandId: northwind,
        files: [{ name, dataBase64: png }],
      });
      expectFailure(refused, 422, 'INVALID_NAME');
    }
    expectFailure(
      await b.call('addFiles', { brandId: northwind, files: [] }),
      400,
      'VALIDATION_ERROR',
    );
  });

  test('retryFile and retryJob: a file the service refused is sent again, as it is on disk', async () => {
    b.sim.control.failNext('POST /v1/images/uploads/file', {
      status: 400,
      code: 'UNSUPPORTED_FORMAT',
      message: 'The file is not an image the service takes.',
      count: 2,
    });
    const png = makePng({ seed: 71 }).toString('base64');
    for (const name of ['refused-one.png', 'refused-two.png']) {
      await b.ok('addFiles', {
        brandId: northwind,
        files: [
          {
            name,
            dataBase64: name === 'refused-one.png' ? png : makePng({ seed: 72 }).toString('base64'),
          },
        ],
      });
    }
    const stateOf = async (name: string) =>
      (await b.ok('files', { brandId: northwind })).files.find((f: any) => f.path === name)?.state;
    await until(
      async () =>
        (await stateOf('refused-one.png')) === 'failed' &&
        (await stateOf('refused-two.png')) === 'failed',
      'both refused',
    );
    // From the Files tab: by path.
    expect(await b.ok('retryFile', { brandId: northwind, path: 'refused-one.png' })).toMatchObject({
      path: 'refused-one.png',
    });
    await until(
      async () => (await stateOf('refused-one.png')) === 'uploaded',
      'the retried file to upload',
    );
    expectFailure(
      await b.call('retryFile', { brandId: northwind, path: 'refused-one.png' }),
      422,
      'NOT_FAILED',
    );
    expectFailure(
      await b.call('retryFile', { brandId: northwind, path: 'nope.png' }),
      422,
      'NOT_FOUND',
    );
    // From Activity: the failed upload job, retried through its file.
    const job = (await b.ok('activity', {})).failed.find((j: any) =>
      j.subject.endsWith('refused-two.png'),
    );
    expect(job).toBeDefined();
    await b.ok('retryJob', { jobId: job.id });
    await until(
      async () => (await stateOf('refused-two.png')) === 'uploaded',
      'the retried job to upload',
    );
  });

  test('syncSkill, syncNow and openFolder', async () => {
    const synced = await b.ok('syncSkill', { brandId: northwind });
    expect(synced.ok).toBe(true);
    expect(['installed', 'unchanged']).toContain(synced.outcome);
    expect(await b.ok('syncNow')).toEqual({ queued: true });
    expect(await b.ok('openFolder', { brandId: northwind })).toEqual({
      path: path.join(b.root, 'Northwind Coffee'),
      opened: false,
    });
  });

  test('imageEdit: started and charged against the brand’s workspace', async () => {
    b.sim.control.setEntitlements(['image-edit', '4k', 'model-selection']);
    b.sim.control.setDurations({ imageMs: 200 });
    const { items } = await b.ok('library', { brandId: northwind, type: 'image' });
    const before = (await b.ok('imageEditQuote', { brandId: northwind, size: '2K' })).balance;
    const started = await b.ok('imageEdit', {
      brandId: northwind,
      imageId: items[0].id,
      prompt: 'Warmer light',
    });
    expect(started).toMatchObject({ status: 'pending', cost: 1 });
    // The result, once completed, shows from the cache: the page may load no remote image.
    const done = await until(async () => {
      const image = await b.ok('image', { imageId: started.imageId });
      return image.status === 'completed' ? image : undefined;
    }, 'the edited image');
    expect(done.file).toMatchObject({ area: 'media', path: started.imageId });
    const { spent } = await b.ok('credits');
    expect(spent[0]).toMatchObject({ action: 'image edit', cost: 1, workspaceId: null });
    const file = await fetch(`${b.host.origin}/files/media/${started.imageId}`, {
      headers: { cookie: b.cookie },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^image\//);
    expect((await b.ok('imageEditQuote', { brandId: northwind, size: '2K' })).balance).toBe(
      before - 1,
    );
    expectFailure(
      await b.call('imageEdit', { brandId: northwind, imageId: items[0].id, prompt: '' }),
      400,
      'VALIDATION_ERROR',
    );
  });

  test('unknown names and malformed bodies get 404 and 400, and the next request works', async () => {
    expectFailure(await b.call('formatDisk'), 404, 'UNKNOWN_CHANNEL');
    const bad = await fetch(`${b.host.origin}/api/status`, {
      method: 'POST',
      headers: { cookie: b.cookie, origin: b.host.origin, 'content-type': 'application/json' },
      body: '{"half":',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.code).toBe('VALIDATION_ERROR');
    expect((await b.ok('status')).signedIn).toBe(true);
  });

  test('no answer ever held the key', () => {
    expect(b.answers.length).toBeGreaterThan(40);
    for (const answer of b.answers) expect(answer).not.toContain(KEY);
  });
});

describe('events', () => {
  test('numbered, in order; a reconnect with Last-Event-ID misses nothing and repeats nothing', async () => {
    const start = b.app.journal.lastSeq;
    await b.ok('pause');
    await b.ok('resume');
    await b.ok('updateSettings', { theme: 'light' });
    const end = b.app.journal.lastSeq;
    expect(end).toBeGreaterThan(start + 2);
    const replay = await b.events({
      lastEventId: start,
      until: (seen) => seen.some((e) => e.seq >= end),
    });
    expect(replay.map((e) => e.seq)).toEqual(
      Array.from({ length: replay.length }, (_, i) => start + 1 + i),
    );
    expect(replay.some((e) => e.type === 'queue')).toBe(true);
    expect(replay.some((e) => e.type === 'settings')).toBe(true);
    // Live: what happens while connected arrives too.
    const live = b.events({ until: (seen) => seen.some((e) => e.type === 'files') });
    await writeFile(path.join(b.root, 'Northwind Coffee', 'live-drop.png'), makePng({ seed: 32 }));
    const seen = await live;
    expect(seen.find((e) => e.type === 'files')).toMatchObject({ brandId: northwind });
  });

  test('a number the journal no longer holds gets one resync event', async () => {
    const seen = await b.events({
      lastEventId: b.app.journal.lastSeq + 1000,
      until: (s) => s.length > 0,
    });
    expect(seen[0]?.type).toBe('resync');
  });
});

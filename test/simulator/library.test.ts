// The Library: most-recently-added order, type filter, page size, opaque cursors that stay
// valid while items are added, hasMore, bulk seeding, media fields, GET /videos/{id}.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Sim } from './helpers.ts';
import { expectError, png, start } from './helpers.ts';

let s: Sim;
beforeEach(async () => {
  s = await start();
});
afterEach(() => s.close());

const MEDIA_FIELDS = [
  'addedToLibraryAt',
  'brandSessionId',
  'createdAt',
  'description',
  'durationMs',
  'fileSize',
  'generationId',
  'height',
  'id',
  'inLibrary',
  'mimeType',
  'source',
  'type',
  'url',
  'width',
  'workspaceId',
];

describe('GET /brands/{id}/library', () => {
  test('items carry every field of the Media file table, most recently added first', async () => {
    const b = await s.readyBrand();
    const { ids } = s.control.seedLibrary(b.id, {
      items: [
        { type: 'image' },
        { type: 'video', durationMs: 5000 },
        { type: 'audio', description: 'jingle' },
      ],
    });
    const page = (await s.get(`/brands/${b.id}/library`)).body.data;
    expect(page.items.map((m: { id: string }) => m.id)).toEqual([...ids].reverse());
    for (const item of page.items) expect(Object.keys(item).sort()).toEqual(MEDIA_FIELDS);
    expect(page).toMatchObject({ hasMore: false, nextCursor: null });
    const audio = page.items[0];
    expect(audio).toMatchObject({
      type: 'audio',
      inLibrary: true,
      brandSessionId: b.id,
      description: 'jingle',
    });
    const bytes = Buffer.from(await (await fetch(audio.url)).arrayBuffer());
    expect(bytes.length).toBe(audio.fileSize);
  });

  test('type filter, limit 1-100 default 50, hasMore', async () => {
    const b = await s.readyBrand();
    s.control.seedLibrary(b.id, { bulk: { count: 120 } });
    const all = (await s.get(`/brands/${b.id}/library`)).body.data;
    expect(all.items).toHaveLength(50);
    expect(all.hasMore).toBe(true);
    const videos = (
      await s.get(`/brands/${b.id}/library`, { query: { type: 'video', limit: 100 } })
    ).body.data;
    expect(videos.items.length).toBe(24);
    expect(videos.items.every((m: { type: string }) => m.type === 'video')).toBe(true);
    expect(videos.hasMore).toBe(false);
    expectError(
      await s.get(`/brands/${b.id}/library`, { query: { limit: 0 } }),
      400,
      'BAD_REQUEST',
    );
    expectError(
      await s.get(`/brands/${b.id}/library`, { query: { limit: 101 } }),
      400,
      'BAD_REQUEST',
    );
    expect(
      (await s.get(`/brands/${b.id}/library`, { query: { limit: 100 } })).body.data.items,
    ).toHaveLength(100);
    expect(
      (await s.get(`/brands/${b.id}/library`, { query: { limit: 1 } })).body.data.items,
    ).toHaveLength(1);
    expectError(
      await s.get(`/brands/${b.id}/library`, { query: { type: 'pdf' } }),
      400,
      'BAD_REQUEST',
    );
  });

  test('cursors stay valid while items are added at the head; walking visits every item once', async () => {
    const b = await s.readyBrand();
    s.control.seedLibrary(b.id, { bulk: { count: 25 } });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const page = (
        await s.get(`/brands/${b.id}/library`, {
          query: { limit: 10, ...(cursor ? { cursor } : {}) },
        })
      ).body.data;
      seen.push(...page.items.map((m: { id: string }) => m.id));
      pages++;
      // New uploads arrive between pages: they go to the head and do not disturb the walk.
      await s.post(
        '/images/uploads/file',
        s.uploadForm(png(3 + pages, 3), { brandSessionId: b.id }),
      );
      if (!page.hasMore) {
        expect(page.nextCursor).toBeNull();
        break;
      }
      cursor = page.nextCursor;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    const head = (await s.get(`/brands/${b.id}/library`, { query: { limit: 3 } })).body.data.items;
    expect(head.every((m: { source: string }) => m.source === 'uploaded')).toBe(true);
  });

  test('a garbage cursor, or one of another brand, → 400 INVALID_CURSOR; unknown brand → 404', async () => {
    const a = await s.readyBrand('A');
    const b = await s.readyBrand('B');
    s.control.seedLibrary(a.id, { bulk: { count: 5 } });
    const page = (await s.get(`/brands/${a.id}/library`, { query: { limit: 2 } })).body.data;
    expectError(
      await s.get(`/brands/${b.id}/library`, { query: { cursor: page.nextCursor } }),
      400,
      'INVALID_CURSOR',
    );
    expectError(
      await s.get(`/brands/${a.id}/library`, { query: { cursor: 'not-a-cursor' } }),
      400,
      'INVALID_CURSOR',
    );
    expectError(
      await s.get(`/brands/${a.id}/library`, {
        query: { cursor: Buffer.from('c1|x|1').toString('base64url') },
      }),
      400,
      'INVALID_CURSOR',
    );
    expectError(
      await s.get(`/brands/00000000-0000-4000-8000-000000000001/library`),
      404,
      'BRAND_NOT_FOUND',
    );
  });

  test('1,000,000 bulk items seed in memory and page from both ends', async () => {
    const b = await s.readyBrand();
    const before = process.memoryUsage().heapUsed;
    const r = s.control.seedLibrary(b.id, { bulk: { count: 1_000_000 } });
    expect(r.size).toBe(1_000_000);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(50 * 1024 * 1024);
    const first = (await s.get(`/brands/${b.id}/library`, { query: { limit: 100, type: 'audio' } }))
      .body.data;
    expect(first.items).toHaveLength(100);
    const one = first.items[0];
    const video = (await s.get(`/brands/${b.id}/library`, { query: { limit: 1, type: 'video' } }))
      .body.data.items[0];
    const got = await s.get(`/videos/${video.id}`);
    expect(got.body.data).toEqual(video);
    expect(one.type).toBe('audio');
  });
});

describe('GET /videos/{id}', () => {
  test('a video answers its media file; an image or unknown ID → 404 MEDIA_NOT_FOUND', async () => {
    const b = await s.readyBrand();
    const { ids } = s.control.seedLibrary(b.id, { items: [{ type: 'video' }, { type: 'image' }] });
    const v = await s.get(`/videos/${ids[0]}`);
    expect(v.body.data).toMatchObject({ id: ids[0], type: 'video', mimeType: 'video/webm' });
    expect(Object.keys(v.body.data).sort()).toEqual(MEDIA_FIELDS);
    expectError(await s.get(`/videos/${ids[1]}`), 404, 'MEDIA_NOT_FOUND');
    expectError(
      await s.get(`/videos/00000000-0000-4000-8000-000000000001`),
      404,
      'MEDIA_NOT_FOUND',
    );
    // A WebM: it begins with the EBML magic.
    const range = await fetch(v.body.data.url, { headers: { range: 'bytes=0-3' } });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer()).toString('hex')).toBe('1a45dfa3');
  });
});

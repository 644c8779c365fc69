// `library list BRAND` as the real bin: mirrored by `sync --once` against the simulator,
// then listed with the simulator stopped and without a key (the mirror only): freshness,
// paging, filters by type and words, unknown media shown as they are, and BRAND resolved
// by ID, folder name or unique name, with clear errors when ambiguous or unknown.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../../simulator/index.ts';
import { runCli } from '../support/run-cli.ts';

const KEY = 'sk-library-cli-0123456789';
let sim: Simulator;
let dir: string;
const ids = { acme: '', sky: '', twinA: '', twinB: '', empty: '' };
let seeded: string[] = [];

function env(extra: Record<string, string | undefined> = {}) {
  return {
    HOME: dir,
    BRAND_SYNC_BASE_URL: sim.baseUrl,
    BRAND_SYNC_DATA_DIR: path.join(dir, 'data'),
    BRAND_SYNC_ROOT: path.join(dir, 'root'),
    ...extra,
  };
}

/** `library list …` offline: no key, and the service stopped. */
async function list(...args: string[]) {
  return runCli(['library', 'list', ...args], env(), KEY);
}

async function listJson(...args: string[]) {
  const run = await list(...args, '--json');
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cli-library-'));
  sim = await startSimulator({ apiKeys: [KEY], speed: 1000, rateLimit: false });
  const seed = async (name: string) => (await sim.control.seedBrand({ name, status: 'ready' })).id;
  ids.acme = await seed('Acme Coffee');
  ids.sky = await seed('Blue/Sky: Studio');
  ids.twinA = await seed('Same/Name');
  ids.twinB = await seed('Same/Name');
  ids.empty = await seed('Empty');
  sim.control.seedLibrary(ids.acme, { bulk: { count: 120 } });
  seeded = sim.control.seedLibrary(ids.acme, {
    items: [
      { type: 'image', description: 'Blue placard for the equinox unveiling' },
      { type: 'video', description: 'Unveiling trailer', durationMs: 8000 },
      {
        type: 'hologram',
        source: 'dreamed',
        mimeType: 'model/gltf-binary',
        description: 'Spinning logo',
      },
    ],
  }).ids;
  sim.control.seedLibrary(ids.sky, { bulk: { count: 3 } });
  const sync = await runCli(['sync', '--once'], env({ BRAND_SYNC_API_KEY: KEY }), KEY);
  expect(sync.code, sync.stdout + sync.stderr).toBe(0);
  expect(sync.stdout).toContain('Library of Acme Coffee: 123 new items (123 in all).');
  await sim.close(); // every listing below is offline
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('library list from the mirror, offline', () => {
  test('one stable JSON document: brand, freshness, items newest first, nextCursor', async () => {
    const doc = await listJson('Acme Coffee');
    expect(Object.keys(doc)).toEqual(['brand', 'freshness', 'items', 'nextCursor']);
    expect(doc.brand).toEqual({
      id: ids.acme,
      name: 'Acme Coffee',
      folder: 'Acme Coffee',
      deletedRemotely: false,
      items: 123,
    });
    expect(Date.parse(doc.freshness.mirroredAt)).toBeGreaterThan(Date.now() - 120_000);
    expect(doc.freshness).toMatchObject({ lastError: null });
    expect(doc.items).toHaveLength(50);
    expect(doc.items.slice(0, 3).map((i: { id: string }) => i.id)).toEqual([...seeded].reverse());
    expect(doc.items[0]).toMatchObject({ type: 'hologram', source: 'dreamed' });
    expect(typeof doc.nextCursor).toBe('string');
  });

  test('pages follow the cursor to the end, without gaps or repeats', async () => {
    const first = await listJson('Acme Coffee', '--limit', '100');
    const second = await listJson('Acme Coffee', '--limit', '100', '--cursor', first.nextCursor);
    expect(second.nextCursor).toBeNull();
    const all = [...first.items, ...second.items].map((i: { id: string }) => i.id);
    expect(all).toHaveLength(123);
    expect(new Set(all).size).toBe(123);
  });

  test('filters by any media type, unknown ones included, and by words of the description', async () => {
    const holograms = await listJson('Acme Coffee', '--type', 'hologram');
    expect(holograms.items.map((i: { id: string }) => i.id)).toEqual([seeded[2]]);
    const videos = await listJson('Acme Coffee', '--type', 'video', '--limit', '500');
    expect(videos.items.length).toBeGreaterThan(1);
    expect(videos.items.every((i: { type: string }) => i.type === 'video')).toBe(true);
    const poster = await listJson('Acme Coffee', '--search', 'PLACARD equinox');
    expect(poster.items.map((i: { id: string }) => i.id)).toEqual([seeded[0]]);
    const launch = await listJson('Acme Coffee', '--search', 'unveiling', '--type', 'video');
    expect(launch.items.map((i: { id: string }) => i.id)).toEqual([seeded[1]]);
  });

  test('human output: how fresh the mirror is, the items as they are, how to go on', async () => {
    const run = await list('Acme Coffee', '--limit', '5');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Acme Coffee: Library mirrored (just now|\d+ s ago), 123 items\.$/);
    expect(lines[1]).toMatch(/^ADDED\s+TYPE\s+SOURCE\s+SIZE\s+DESCRIPTION\s+ID$/);
    expect(lines[2]).toMatch(/hologram\s+dreamed\s+.*Spinning logo\s+/);
    expect(lines.at(-1)).toMatch(
      /^More: brand-sync library list 'Acme Coffee' --limit 5 --cursor \S+$/,
    );
    const none = await list('Acme Coffee', '--search', 'nothing-like-this');
    expect(none.stdout).toContain('No items match.');
  });

  test('a brand never mirrored says so and how to mirror it', async () => {
    const unknownId = '5f0c6b7e-8d1a-4c2b-9e3f-0a1b2c3d4e5f';
    const run = await list(unknownId);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`The Library of ${unknownId} has never been mirrored`);
    expect(run.stdout).toContain('brand-sync sync --once');
    const empty = await list('Empty');
    expect(empty.stdout).toMatch(/Empty: Library mirrored .*, 0 items\.\nThe Library is empty\./);
  });

  test('bad options are bad usage (exit 2) with one clear line', async () => {
    for (const args of [
      ['--limit', '0'],
      ['--limit', 'ten'],
      ['--search', '!!'],
      ['--cursor', 'not-a-cursor'],
    ]) {
      const run = await list('Acme Coffee', ...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('BRAND: ID, folder name, or unique name', () => {
  test('the folder name and the brand name (any case) both name the brand', async () => {
    const byFolder = await listJson('Blue-Sky- Studio');
    expect(byFolder.brand).toMatchObject({ id: ids.sky, folder: 'Blue-Sky- Studio' });
    expect(byFolder.items).toHaveLength(3);
    expect((await listJson('blue-sky- STUDIO')).brand.id).toBe(ids.sky);
    expect((await listJson('blue/sky: studio')).brand.id).toBe(ids.sky);
    expect((await listJson(ids.sky)).brand.id).toBe(ids.sky);
    expect((await listJson(ids.sky.toUpperCase())).brand.id).toBe(ids.sky);
  });

  test('a name two brands share is ambiguous: both are listed with their folders and IDs', async () => {
    const run = await list('same/name');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"same/name" could be 2 brands');
    expect(run.stderr).toContain(ids.twinA);
    expect(run.stderr).toContain(ids.twinB);
    expect(run.stderr).toMatch(/folder "Same-Name"/);
    expect(run.stderr).toMatch(/folder "Same-Name \(2\)"/);
    // Their folder names are unique.
    expect((await listJson('Same-Name (2)')).brand.name).toBe('Same/Name');
  });

  test('an unknown name is bad usage naming the near matches', async () => {
    const near = await list('acme');
    expect(near.code).toBe(2);
    expect(near.stderr).toContain(
      `did you mean: Acme Coffee (folder "Acme Coffee", ID ${ids.acme})`,
    );
    const none = await list('Zebra');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no brand has the ID, folder or name "Zebra"; known brands:');
  });
});

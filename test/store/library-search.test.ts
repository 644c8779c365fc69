// The command palette's word index on the real SQLite file: Library items of every brand by
// the name of the local file they came from, their description and their source; prefixes;
// accents ignored both ways; kept current by the mirror's own writes (an item changed, removed,
// a file uploaded or moved); migrated onto an existing database. And the palette's search
// over the Brand Skill on disk: colours by name or hex, files by path.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeManifest } from '../../main/engine/export-parts/skill-manifest.ts';
import { migrations } from '../../main/engine/store/migrations.ts';
import { openStore, type LibraryItemInput, type Store } from '../../main/engine/store/index.ts';
import { searchEverything } from '../../main/engine/views/search.ts';
import { libraryItemName } from '../../main/engine/views/library-item-name.ts';
import { openTempStore, type TempStore } from './open-temp-store.ts';
import { makeTempDir } from './temp-dir.ts';

let t: TempStore;
let store: Store;
beforeEach(() => {
  t = openTempStore();
  store = t.store;
});
afterEach(() => t.cleanup());

let counter = 0;
function item(id: string, over: Partial<LibraryItemInput> = {}): LibraryItemInput {
  const added = new Date(Date.UTC(2026, 0, 1) + ++counter * 60_000).toISOString();
  const base = {
    id,
    type: 'image',
    source: 'scraped',
    workspaceId: null,
    mimeType: 'image/png',
    url: null,
    fileSize: 100,
    durationMs: null,
    width: 10,
    height: 10,
    description: null,
    inLibrary: true,
    addedToLibraryAt: added,
    generationId: null,
    createdAt: added,
  };
  const merged = { ...base, ...over };
  return { ...merged, raw: { ...merged } };
}

let seq = 0;
function mirror(brandId: string, items: LibraryItemInput[]): void {
  seq++;
  store.library.upsertPage(brandId, items, { seq, trustedSeq: seq - 1 });
}

const found = (text: string) => store.library.find(text).map((i) => i.id);

/** A local file of the brand folder, uploaded as image `imageId`. */
function uploaded(brandId: string, relPath: string, imageId: string): number {
  store.brands.ensure(brandId);
  const { file } = store.files.observe({
    brandId,
    relPath,
    size: 10,
    mtimeMs: 1,
    kind: 'image',
  });
  store.files.setHash(file.id, relPath.length.toString(16).padStart(64, '0'));
  store.files.markUploaded(file.id, { imageId, existing: false });
  return file.id;
}

describe('the palette word index', () => {
  it('finds items of every brand by description and by source, words and word beginnings, in any case', () => {
    mirror('b1', [
      item('i1', { description: 'Claret wall in the Lisbon store' }),
      item('i2', { description: 'Autumn campaign hero', source: 'generated' }),
    ]);
    mirror('b2', [item('i3', { description: 'Claret bottle label' }), item('i4')]);
    expect(found('claret').sort()).toEqual(['i1', 'i3']);
    expect(found('CLA').sort()).toEqual(['i1', 'i3']);
    expect(found('cl')).toHaveLength(2);
    expect(found('claret lab')).toEqual(['i3']);
    expect(found('generated')).toEqual(['i2']);
    expect(found('gen hero')).toEqual(['i2']);
    // Every word must match, somewhere among the three columns.
    expect(found('claret generated')).toEqual([]);
    expect(found('scraped').sort()).toEqual(['i1', 'i3', 'i4']);
    expect(found('  !? ')).toEqual([]);
    expect(found('nothing')).toEqual([]);
  });

  it('ignores accents both ways: what was stored and what is typed', () => {
    mirror('b1', [
      item('i1', { description: 'Crème brûlée poster' }),
      item('i2', { description: 'Ångström façade' }),
      item('i3', { description: 'cafe menu' }),
    ]);
    expect(found('creme')).toEqual(['i1']);
    expect(found('brulee')).toEqual(['i1']);
    expect(found('crè')).toEqual(['i1']);
    expect(found('angstrom facade')).toEqual(['i2']);
    expect(found('café')).toEqual(['i3']);
  });

  it('finds an uploaded image by the name of its local file, recorded before or after the item arrives', () => {
    // Upload first, then the Library item (the usual order).
    uploaded('b1', 'Campaign/Autumn/hero-claret_v2.png', 'img-1');
    mirror('b1', [item('img-1', { source: 'uploaded' })]);
    expect(found('hero')).toEqual(['img-1']);
    expect(found('autumn claret')).toEqual(['img-1']);
    expect(found('v2')).toEqual(['img-1']);
    expect(store.library.get('img-1')?.fileName).toBe('Campaign/Autumn/hero-claret_v2.png');

    // The item first, then the upload recorded.
    mirror('b1', [item('img-2', { source: 'uploaded' })]);
    expect(found('poster')).toEqual([]);
    const fileId = uploaded('b1', 'Poster A3.jpg', 'img-2');
    expect(found('poster')).toEqual(['img-2']);

    // The file moved in its folder: the item follows (and is no longer found by its old name).
    store.files.rename(fileId, 'Print/Flyer A5.jpg');
    expect(found('poster')).toEqual([]);
    expect(found('flyer')).toEqual(['img-2']);
    expect(found('print a5')).toEqual(['img-2']);

    // A later refresh of the item from the service keeps the name.
    mirror('b1', [item('img-2', { source: 'uploaded', description: 'A flyer' })]);
    expect(store.library.get('img-2')?.fileName).toBe('Print/Flyer A5.jpg');
    expect(found('flyer')).toEqual(['img-2']);
  });

  it('follows descriptions that change and items that leave the Library; ranks the name first', () => {
    mirror('b1', [
      item('i1', { description: 'green banner' }),
      item('i2', { description: 'red banner' }),
    ]);
    mirror('b1', [item('i1', { description: 'blue banner' })]);
    expect(found('green')).toEqual([]);
    expect(found('blue')).toEqual(['i1']);
    store.library.markUnseenRemoved('b1', seq);
    expect(found('banner')).toEqual(['i1']);

    uploaded('b1', 'banner.png', 'i9');
    mirror('b1', [
      item('i9', { description: 'a picture' }),
      item('i8', { description: 'a long banner on the garden wall' }),
    ]);
    // A file named for the word comes before a description that mentions it.
    expect(found('banner')[0]).toBe('i9');
  });

  it('answers from the word index, never a scan of the Library', () => {
    mirror('b1', [item('i1', { description: 'claret' })]);
    const plan = store.library.findPlan('cla').join(' | ');
    expect(plan).toMatch(/SCAN library_search VIRTUAL TABLE INDEX/);
    expect(plan).toMatch(/SEARCH li USING INTEGER PRIMARY KEY/);
    expect(plan).not.toMatch(/SCAN li\b/);
  });

  it('lists the Library of every brand at once, newest first, keyset-paged on an index', () => {
    mirror('b1', [item('a1'), item('a2', { type: 'video' })]);
    mirror('b2', [item('b1'), item('b2')]);
    const page = store.library.list(null, { limit: 3 });
    expect(page.items.map((i) => i.id)).toEqual(['b2', 'b1', 'a2']);
    const rest = store.library.list(null, { limit: 3, cursor: page.nextCursor });
    expect(rest.items.map((i) => i.id)).toEqual(['a1']);
    expect(store.library.count(null)).toBe(4);
    expect(store.library.count(null, { type: 'video' })).toBe(1);
    expect(store.library.typeCounts(null)).toEqual([
      { type: 'image', count: 3 },
      { type: 'video', count: 1 },
    ]);
    for (const query of [{}, { type: 'image' }, { cursor: page.nextCursor }]) {
      const plan = store.library.listPlan(null, query).join(' | ');
      expect(plan, JSON.stringify(query)).toMatch(/INDEX library_all(_by_type)?/);
      expect(plan, JSON.stringify(query)).not.toMatch(/SCAN|TEMP B-TREE/);
    }
  });
});

describe('migration 3 on a database of the earlier schema', () => {
  it('indexes the items already mirrored, names from the files already uploaded', () => {
    const temp = makeTempDir();
    try {
      const old = openStore({ dataDir: temp.dir }, { migrations: migrations.slice(0, 2) });
      expect(old.schemaVersion).toBe(2);
      // The rows as version 2 wrote them (its repository code, not this one's).
      const row = (id: string, description: string | null) =>
        old.db.run(
          `INSERT INTO library_items (id, brand_id, type, source, description, sort_at, raw_json,
             first_seen_seq, seen_seq, first_seen_at, last_seen_at)
           VALUES (?, 'b1', 'image', 'uploaded', ?, 1, '{}', 1, 1, 1, 1)`,
          id,
          description,
        );
      old.db.run(`INSERT INTO brands (id, created_at, updated_at) VALUES ('b1', 1, 1)`);
      row('m1', 'Crème label');
      old.db.run(
        `INSERT INTO files (brand_id, rel_path, path_key, size, mtime_ms, kind, state, image_id,
           first_seen_at, updated_at) VALUES ('b1', 'Shop/window.png', 'shop/window.png', 1, 1,
           'image', 'uploaded', 'm2', 1, 1)`,
      );
      row('m2', null);
      old.close();
      const current = openStore({ dataDir: temp.dir });
      expect(current.schemaVersion).toBe(migrations.length);
      expect(current.library.find('creme').map((i) => i.id)).toEqual(['m1']);
      expect(current.library.find('window').map((i) => i.id)).toEqual(['m2']);
      expect(current.library.list('b1', { search: 'shop' }).items.map((i) => i.id)).toEqual(['m2']);
      current.close();
    } finally {
      temp.cleanup();
    }
  });
});

describe('item names', () => {
  it('names an item by its local file, else by its description or type, with its extension', () => {
    const base = { id: '6b2737aa-0000', type: 'image', mimeType: 'image/jpeg' };
    expect(libraryItemName({ ...base, description: null, fileName: 'Print/Flyer A5.jpg' })).toBe(
      'Flyer A5.jpg',
    );
    expect(libraryItemName({ ...base, description: 'Storefront, at dawn!', fileName: null })).toBe(
      'Storefront at dawn.jpg',
    );
    expect(
      libraryItemName({
        ...base,
        type: 'video',
        mimeType: null,
        description: null,
        fileName: null,
      }),
    ).toBe('video 6b2737aa.mp4');
    expect(
      libraryItemName({ ...base, mimeType: 'image/HEIC', description: 'Shelf', fileName: null }),
    ).toBe('Shelf.heic');
    expect(
      libraryItemName({
        ...base,
        type: 'hologram',
        mimeType: 'application/x-holo+json',
        description: '',
        fileName: null,
      }),
    ).toBe('hologram 6b2737aa.bin');
  });
});

describe('the palette search over brands and the Brand Skill on disk', () => {
  it('finds brands, colours by name or hex, skill files by path and Library items, accents ignored', async () => {
    const root = path.join(t.dir, 'root');
    store.brands.upsertFromService({ id: 'b1', name: 'Northwind Café', status: 'ready' });
    store.brands.upsertFromService({ id: 'b2', name: 'Lumen Labs', status: 'ready' });
    store.brands.setFolder('b1', 'Northwind Café');
    const live = path.join(root, 'Northwind Café', 'Brand Skill');
    await mkdir(path.join(live, 'guidelines'), { recursive: true });
    await writeFile(
      path.join(live, 'profile.json'),
      JSON.stringify({
        name: 'Northwind Café',
        colors: [
          { hex: '#6B2737', name: 'Claret' },
          { hex: '#E8C547', name: 'Saffron' },
          '#FFFFFF',
        ],
      }),
    );
    await writeFile(path.join(live, 'guidelines', 'colors.md'), '# Colours\n');
    await writeManifest(live, {
      skillId: 'skill-1',
      installedAt: '2026-03-01T12:00:00Z',
      totalBytes: 20,
      files: [
        { path: 'profile.json', size: 10, sha256: 'a'.repeat(64) },
        { path: 'guidelines/colors.md', size: 10, sha256: 'b'.repeat(64) },
      ],
    });
    mirror('b2', [item('i1', { description: 'Claret mug' })]);

    const claret = await searchEverything(store, root, 'claret');
    expect(claret.colors).toEqual([
      { brandId: 'b1', brandName: 'Northwind Café', hex: '#6B2737', name: 'Claret' },
    ]);
    expect(claret.items.map((i) => [i.id, i.brandName, i.name])).toEqual([
      ['i1', 'Lumen Labs', 'Claret mug.png'],
    ]);
    expect(claret.brands).toEqual([]);

    expect((await searchEverything(store, root, '#6b27')).colors.map((c) => c.name)).toEqual([
      'Claret',
    ]);
    expect((await searchEverything(store, root, 'ffff')).colors.map((c) => c.hex)).toEqual([
      '#FFFFFF',
    ]);
    const cafe = await searchEverything(store, root, 'north cafe');
    expect(cafe.brands.map((b) => b.name)).toEqual(['Northwind Café']);
    const files = await searchEverything(store, root, 'guide col');
    expect(files.skillFiles).toEqual([
      {
        brandId: 'b1',
        brandName: 'Northwind Café',
        path: 'guidelines/colors.md',
        name: 'colors.md',
        mimeType: 'text/markdown',
        size: 10,
        file: { area: 'skill', brandId: 'b1', path: 'guidelines/colors.md' },
      },
    ]);
    expect(await searchEverything(store, root, '  ')).toEqual({
      text: '  ',
      brands: [],
      items: [],
      colors: [],
      skillFiles: [],
    });
  });
});

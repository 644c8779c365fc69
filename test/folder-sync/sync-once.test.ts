// `sync --once` over real files: what is uploaded (once), what is skipped and why, and
// that skipped files are not failures.
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  makeGif,
  makeJpeg,
  makePng,
  makePngOfSize,
  makeSvg,
  makeWebp,
} from '../folder-parts/fixtures.ts';
import { folderSection, harness, sha256, type Harness } from './harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(async () => {
  await h.close();
});

describe('sync --once uploads what is new', () => {
  test('accepted images are uploaded once; others are skipped with their reason; the pass is ok', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    const png = await h.put('Acme', 'a.png', makePng({ seed: 1 }));
    const jpg = await h.put('Acme', 'deep/er/photo.jpg', makeJpeg(3));
    const webp = await h.put('Acme', 'w.webp', makeWebp());
    await h.put('Acme', 'anim.png', makeGif()); // a GIF named .png
    await h.put('Acme', 'huge.png', makePngOfSize(11 * 1024 * 1024));
    await h.put('Acme', 'empty.png', Buffer.alloc(0));
    await h.put('Acme', 'cut.png', makePng({ seed: 2, width: 40, height: 40 }).subarray(0, 60));
    await h.put('Acme', 'mark.svg', makeSvg());

    const report = await engine.syncOnce();
    expect(report.failures).toEqual([]);
    expect(report.ok).toBe(true);

    const received = h.received(brand.id);
    expect(received).toEqual(
      new Map([
        [png, 1],
        [jpg, 1],
        [webp, 1],
      ]),
    );
    const state = (p: string) => h.file(brand.id, p);
    expect(state('a.png')).toMatchObject({ state: 'uploaded', existing: false, sha256: png });
    expect(state('a.png')?.imageId).toBe(
      h.sim.control.uploads(brand.id).find((u) => u.sha256 === png)?.id,
    );
    expect(state('deep/er/photo.jpg')).toMatchObject({ state: 'uploaded' });
    expect(state('anim.png')).toMatchObject({
      state: 'skipped',
      lastError: 'UNSUPPORTED_FORMAT',
      reason: 'GIF is not accepted: PNG, JPEG, WebP or AVIF',
    });
    expect(state('huge.png')).toMatchObject({ state: 'skipped', lastError: 'TOO_LARGE' });
    expect(state('empty.png')).toMatchObject({ state: 'skipped', lastError: 'EMPTY' });
    expect(state('cut.png')).toMatchObject({ state: 'skipped', lastError: 'TRUNCATED' });
    expect(state('mark.svg')).toMatchObject({ state: 'skipped', lastError: 'SVG_OUTSIDE_LOGO' });

    const section = folderSection(report);
    expect(section.uploaded.map((u) => u.path).sort()).toEqual(
      ['a.png', 'deep/er/photo.jpg', 'w.webp'].sort(),
    );
    expect(section.skipped.map((u) => u.path).sort()).toEqual(
      ['anim.png', 'cut.png', 'empty.png', 'huge.png', 'mark.svg'].sort(),
    );
    expect(section.summary).toContain(
      'Skipped Acme/anim.png: GIF is not accepted: PNG, JPEG, WebP or AVIF',
    );

    // Nothing changed: a second pass sends nothing and reports nothing.
    const again = await engine.syncOnce();
    expect(again.ok).toBe(true);
    expect(h.received(brand.id)).toEqual(received);
    expect(folderSection(again).uploaded).toEqual([]);
  });
});

describe('the same bytes upload once per brand', () => {
  test('a copy, a rename and a move of an uploaded file send nothing; a change in place is a new upload', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    const first = makePng({ seed: 10 });
    const sha = await h.put('Acme', 'orig.png', first);
    await engine.syncOnce();
    expect(h.received(brand.id)).toEqual(new Map([[sha, 1]]));
    const imageId = h.file(brand.id, 'orig.png')?.imageId;
    expect(imageId).toBeTruthy();

    await h.put('Acme', 'copy of orig.png', first);
    await rename(path.join(h.root, 'Acme', 'orig.png'), path.join(h.root, 'Acme', 'renamed.png'));
    const report = await engine.syncOnce();
    expect(report.ok).toBe(true);
    expect(h.received(brand.id)).toEqual(new Map([[sha, 1]]));
    expect(h.file(brand.id, 'copy of orig.png')).toMatchObject({
      state: 'uploaded',
      imageId,
      existing: true,
    });
    expect(h.file(brand.id, 'renamed.png')).toMatchObject({ state: 'uploaded', imageId });
    // A rename is not a deletion: the old row goes quietly (same inode, same bytes).
    expect(h.file(brand.id, 'orig.png')).toBeUndefined();
    expect(
      engine.store.activity.list({ limit: 50 }).some((a) => a.code === 'FILE_DELETED_LOCALLY'),
    ).toBe(false);

    await mkdir(path.join(h.root, 'Acme', 'sub'));
    await rename(
      path.join(h.root, 'Acme', 'renamed.png'),
      path.join(h.root, 'Acme', 'sub', 'moved.png'),
    );
    await engine.syncOnce();
    expect(h.received(brand.id)).toEqual(new Map([[sha, 1]]));
    expect(h.file(brand.id, 'sub/moved.png')).toMatchObject({ state: 'uploaded', imageId });

    const changed = makePng({ seed: 11 });
    await writeFile(path.join(h.root, 'Acme', 'sub', 'moved.png'), changed);
    await engine.syncOnce();
    expect(h.received(brand.id)).toEqual(
      new Map([
        [sha, 1],
        [sha256(changed), 1],
      ]),
    );
    expect(h.file(brand.id, 'sub/moved.png')).toMatchObject({
      state: 'uploaded',
      sha256: sha256(changed),
    });
  });

  test('identical files dropped together are sent once; both end uploaded', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    const bytes = makePng({ seed: 20 });
    for (let i = 0; i < 5; i++) await h.put('Acme', `twin-${i}.png`, bytes);
    expect((await engine.syncOnce()).ok).toBe(true);
    expect(h.received(brand.id)).toEqual(new Map([[sha256(bytes), 1]]));
    for (let i = 0; i < 5; i++) expect(h.file(brand.id, `twin-${i}.png`)?.state).toBe('uploaded');
  });

  test('a renamed brand folder keeps its link: nothing is uploaded again', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    const sha = await h.put('Acme', 'a.png', makePng({ seed: 30 }));
    await engine.syncOnce();
    await rename(path.join(h.root, 'Acme'), path.join(h.root, 'Acme (mine)'));
    const report = await engine.syncOnce();
    expect(report.ok).toBe(true);
    expect(engine.store.brands.get(brand.id)?.folderName).toBe('Acme (mine)');
    expect(h.received(brand.id)).toEqual(new Map([[sha, 1]]));
    expect(h.file(brand.id, 'a.png')?.state).toBe('uploaded');
    expect(
      engine.store.activity.list({ limit: 50 }).some((a) => a.code === 'FILE_DELETED_LOCALLY'),
    ).toBe(false);
  });

  test('1,000 files dropped at once are each uploaded once', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    const shas = new Set<string>();
    await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        h
          .put(
            'Acme',
            `drop/${Math.floor(i / 100)}/img-${i}.png`,
            makePng({ seed: i % 256, width: 3 + Math.floor(i / 256) }),
          )
          .then((s) => shas.add(s)),
      ),
    );
    expect(shas.size).toBe(1000);
    const report = await engine.syncOnce();
    expect(report.ok).toBe(true);
    const received = h.received(brand.id);
    expect(received.size).toBe(1000);
    expect([...received.values()].every((n) => n === 1)).toBe(true);
    expect(engine.store.files.countsByState(brand.id).uploaded).toBe(1000);
  }, 60_000);
});

describe('local deletions and changes while closed', () => {
  test('a deleted file is marked deleted and the user is told nothing was deleted remotely', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    await h.put('Acme', 'gone.png', makePng({ seed: 40 }));
    await engine.syncOnce();
    await rm(path.join(h.root, 'Acme', 'gone.png'));
    const report = await engine.syncOnce();
    expect(report.ok).toBe(true);
    expect(h.file(brand.id, 'gone.png')).toMatchObject({ state: 'deleted' });
    expect(h.file(brand.id, 'gone.png')?.imageId).toBeTruthy();
    const notice = engine.store.activity
      .list({ limit: 50 })
      .find((a) => a.code === 'FILE_DELETED_LOCALLY');
    expect(notice?.message).toMatch(
      /Acme\/gone\.png: Deleted on this computer only: the service keeps its copy/,
    );
    expect(folderSection(report).deleted.map((d) => d.path)).toEqual(['gone.png']);
    // Put back: the service has those bytes already, nothing is sent.
    await h.put('Acme', 'gone.png', makePng({ seed: 40 }));
    await engine.syncOnce();
    expect([...h.received(brand.id).values()]).toEqual([1]);
    expect(h.file(brand.id, 'gone.png')?.state).toBe('uploaded');
  });

  test('changes made while the app was closed are found at the next start', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    const keep = await h.put('Acme', 'keep.png', makePng({ seed: 50 }));
    await h.put('Acme', 'edit.png', makePng({ seed: 51 }));
    await h.put('Acme', 'drop.png', makePng({ seed: 52 }));
    await engine.syncOnce();
    await h.closeEngine();

    const edited = await h.put('Acme', 'edit.png', makePng({ seed: 53 }));
    const added = await h.put('Acme', 'new/added.jpg', makeJpeg(9));
    await rm(path.join(h.root, 'Acme', 'drop.png'));

    const again = h.open();
    const report = await again.syncOnce();
    expect(report.ok).toBe(true);
    const received = h.received(brand.id);
    expect(received.get(keep)).toBe(1);
    expect(received.get(edited)).toBe(1);
    expect(received.get(added)).toBe(1);
    expect(received.size).toBe(5);
    expect(h.file(brand.id, 'edit.png')).toMatchObject({ state: 'uploaded', sha256: edited });
    expect(h.file(brand.id, 'drop.png')?.state).toBe('deleted');
    expect(h.file(brand.id, 'new/added.jpg')?.state).toBe('uploaded');
  });
});

describe('names and links', () => {
  test('NFC and NFD names of the same word: the NFC one is synced, the clash is told', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    const nfc = await h.put('Acme', 'Caf\u00e9.png', makePng({ seed: 60 }));
    await h.put('Acme', 'Cafe\u0301.png', makePng({ seed: 61 }));
    const alone = await h.put('Acme', 'Re\u0301sume\u0301.png', makePng({ seed: 62 })); // NFD only
    const report = await engine.syncOnce();
    expect(report.ok).toBe(true);
    expect(h.received(brand.id)).toEqual(
      new Map([
        [nfc, 1],
        [alone, 1],
      ]),
    );
    expect(h.file(brand.id, 'Caf\u00e9.png')).toMatchObject({ state: 'uploaded', sha256: nfc });
    expect(h.file(brand.id, 'R\u00e9sum\u00e9.png')).toMatchObject({
      state: 'uploaded',
      sha256: alone,
    });
    const clash = engine.store.activity
      .list({ limit: 50 })
      .filter((a) => a.code === 'NAME_COLLISION');
    expect(clash).toHaveLength(1);
    expect((await engine.syncOnce()).ok).toBe(true);
    expect(h.received(brand.id).size).toBe(2);
  });

  test('a symlink loop is reported and not followed; the rest is uploaded', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    const sha = await h.put('Acme', 'sub/a.png', makePng({ seed: 70 }));
    await symlink(path.join(h.root, 'Acme'), path.join(h.root, 'Acme', 'sub', 'loop'));
    await symlink(path.join(h.dir), path.join(h.root, 'Acme', 'outside'));
    const report = await engine.syncOnce();
    expect(report.ok).toBe(true);
    expect(h.received(brand.id)).toEqual(new Map([[sha, 1]]));
    const codes = engine.store.activity.list({ limit: 50 }).map((a) => a.code);
    expect(codes).toContain('SYMLINK_LOOP');
    expect(codes).toContain('SYMLINK_OUTSIDE_ROOT');
    expect(engine.store.files.list({ brandId: brand.id }).map((f) => f.relPath)).toEqual([
      'sub/a.png',
    ]);
  });

  test('patterns of the brand ignore file are not uploaded; temp files never are', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    await writeFile(path.join(h.root, 'Acme', '.brandsyncignore'), 'drafts/\n*.raw.png\n');
    const sha = await h.put('Acme', 'final.png', makePng({ seed: 80 }));
    await h.put('Acme', 'drafts/wip.png', makePng({ seed: 81 }));
    await h.put('Acme', 'x.raw.png', makePng({ seed: 82 }));
    await h.put('Acme', 'dl.png.crdownload', makePng({ seed: 83 }));
    await h.put('Acme', '.DS_Store', Buffer.from('x'));
    expect((await engine.syncOnce()).ok).toBe(true);
    expect(h.received(brand.id)).toEqual(new Map([[sha, 1]]));
    expect(engine.store.files.list({ brandId: brand.id }).map((f) => f.relPath)).toEqual([
      'final.png',
    ]);
  });
});

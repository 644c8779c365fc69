// The folder sync on a real case-insensitive, normalisation-insensitive disk (what macOS and
// Windows give by default), mounted with FUSE: the engine finds out the disk ignores case,
// and a case-only rename, a name in another case or another Unicode form, is one file there:
// nothing is sent again and nothing is called deleted. The same disk plays a file held open
// by another program on Windows (EBUSY): it waits, and is sent once released.
import { readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { PathNormaliser } from '../../main/engine/folder-parts/path-normalise.ts';
import { makePng } from '../folder-parts/fixtures.ts';
import {
  caseInsensitiveDiskMissing,
  mountCaseInsensitiveDisk,
  type CaseInsensitiveDisk,
} from '../support/case-insensitive-disk.ts';
import { folderSection, harness, sha256, waitFor, type Harness } from './harness.ts';
import type { FolderSyncOptions } from '../../main/engine/folder-sync/folder-sync-feature.ts';

describe.skipIf(caseInsensitiveDiskMissing !== null)(
  `on a case-insensitive disk ${caseInsensitiveDiskMissing ?? ''}`,
  () => {
    let disk: CaseInsensitiveDisk;
    let h: Harness;
    let n = 0;
    beforeAll(async () => {
      disk = await mountCaseInsensitiveDisk();
    });
    afterAll(async () => {
      await disk?.unmount();
    });
    afterEach(async () => {
      await h?.close();
    });
    /** Brand Acme with its folder in a fresh sync root on the disk, the engine open. */
    const acmeOnDisk = async (options: FolderSyncOptions = {}) => {
      h = await harness({}, path.join(disk.dir, `root-${++n}`));
      const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
      const engine = h.open(options);
      await engine.syncOnce(); // makes the root and the brand folder
      return { brand, engine };
    };
    const rows = (brandId: string) => h.engine!.store.files.list({ brandId });

    test('the engine finds out that the disk ignores case', async () => {
      await acmeOnDisk();
      expect((await PathNormaliser.forRoot(h.root)).caseInsensitive).toBe(true);
      // The probe leaves nothing behind.
      expect((await readdir(h.root)).sort()).toEqual(['Acme']);
    });

    test('sync passes: a case-only rename, and a name in NFD, send nothing again', async () => {
      const { brand, engine } = await acmeOnDisk();
      const photo = await h.put('Acme', 'Photo.png', makePng({ seed: 1 }));
      const cafe = await h.put('Acme', 'Cafe\u0301.png', makePng({ seed: 2 })); // NFD
      const first = await engine.syncOnce();
      expect(first.ok).toBe(true);
      expect(h.received(brand.id)).toEqual(
        new Map([
          [photo, 1],
          [cafe, 1],
        ]),
      );

      await rename(path.join(h.root, 'Acme', 'Photo.png'), path.join(h.root, 'Acme', 'PHOTO.PNG'));
      const second = await engine.syncOnce();
      const section = folderSection(second);
      expect(second.ok).toBe(true);
      expect(section.uploaded).toEqual([]);
      expect(section.deleted).toEqual([]);
      expect(h.received(brand.id).get(photo)).toBe(1);
      // One row per file, under the spelling the disk shows now (NFC in the index).
      expect(
        rows(brand.id)
          .map((f) => [f.relPath, f.state])
          .sort(),
      ).toEqual([
        ['Café.png', 'uploaded'],
        ['PHOTO.PNG', 'uploaded'],
      ]);

      // Restarted: the same files, found again by their keys, nothing sent.
      await h.closeEngine();
      const reopened = h.open();
      const third = await reopened.syncOnce();
      expect(folderSection(third).uploaded).toEqual([]);
      expect(h.received(brand.id)).toEqual(
        new Map([
          [photo, 1],
          [cafe, 1],
        ]),
      );
    }, 60_000);

    test('writing "a.png" over "A.PNG" changes the one file: its new bytes are sent once', async () => {
      const { brand, engine } = await acmeOnDisk();
      const v1 = await h.put('Acme', 'A.PNG', makePng({ seed: 3 }));
      await engine.syncOnce();
      const v2bytes = makePng({ seed: 4 });
      await writeFile(path.join(h.root, 'Acme', 'a.png'), v2bytes);
      const pass = await engine.syncOnce();
      expect(pass.ok).toBe(true);
      expect(h.received(brand.id)).toEqual(
        new Map([
          [v1, 1],
          [sha256(v2bytes), 1],
        ]),
      );
      expect(rows(brand.id).map((f) => [f.relPath, f.sha256])).toEqual([
        ['A.PNG', sha256(v2bytes)],
      ]);
    }, 60_000);

    test('a file another program holds open (Windows: EBUSY) waits with a backoff, is never failed, and is sent once released', async () => {
      const { brand, engine } = await acmeOnDisk({
        windowMs: 200,
        lockedBackoff: { initialMs: 100, maxMs: 400 },
      });
      await engine.start();
      const file = path.join(h.root, 'Acme', 'held.png');
      const bytes = makePng({ seed: 6 });
      await writeFile(file, bytes);
      const release = await disk.holdOpen(file);
      await new Promise((r) => setTimeout(r, 1500)); // the window, and several tries
      expect(h.received(brand.id).size).toBe(0);
      expect(['failed', 'skipped']).not.toContain(h.file(brand.id, 'held.png')?.state);
      await release();
      await waitFor('the upload', () => h.file(brand.id, 'held.png')?.state === 'uploaded');
      expect(h.received(brand.id)).toEqual(new Map([[sha256(bytes), 1]]));
    }, 60_000);

    test('run: a case-only rename while watching sends nothing and is not a deletion', async () => {
      const { brand, engine } = await acmeOnDisk({ windowMs: 300, goneDelayMs: 600 });
      await engine.start();
      const bytes = makePng({ seed: 5 });
      await h.put('Acme', 'shot.png', bytes);
      await waitFor('the upload', () => h.file(brand.id, 'shot.png')?.state === 'uploaded');
      await rename(path.join(h.root, 'Acme', 'shot.png'), path.join(h.root, 'Acme', 'Shot.png'));
      await waitFor('the new spelling', () => rows(brand.id).some((f) => f.relPath === 'Shot.png'));
      await new Promise((r) => setTimeout(r, 900)); // past the deletion delay
      expect(rows(brand.id).map((f) => [f.relPath, f.state])).toEqual([['Shot.png', 'uploaded']]);
      expect(h.received(brand.id)).toEqual(new Map([[sha256(bytes), 1]]));
      const deletions = engine.store.activity
        .list({ limit: 100 })
        .filter((a) => a.code === 'FILE_DELETED_LOCALLY');
      expect(deletions).toEqual([]);
    }, 60_000);
  },
);

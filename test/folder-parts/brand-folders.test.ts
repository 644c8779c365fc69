import { cp, mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  discoverBrandFolders,
  ensureBrandFolder,
  folderNameKey,
  MAX_FOLDER_NAME_LENGTH,
  readMarker,
  safeFolderName,
  uniqueFolderName,
  writeMarker,
} from '../../main/engine/folder-parts/brand-folders.ts';
import { FolderError } from '../../main/engine/folder-parts/folder-errors.ts';
import { MARKER_FILE } from '../../main/engine/folder-parts/folder-layout.ts';
import { makeTempDir } from './fixtures.ts';

const ID_A = '0b6f3a52-7d1e-4c39-9b7a-2f4d5e6a7b8c';
const ID_B = '1c7a4b63-8e2f-4d4a-8c8b-3a5e6f7b8c9d';

describe('safeFolderName', () => {
  it.each([
    ['Acme', 'Acme'],
    ['AC/DC: Live', 'AC-DC- Live'],
    ['a<b>c"d?e*f|g\\h', 'a_b_c_d_e_f-g-h'],
    ['  spaced   out  ', 'spaced out'],
    ['Trailing dots...', 'Trailing dots'],
    ['Trailing space. . ', 'Trailing space'],
    ['.hidden', 'hidden'],
    ['..', 'Brand 0b6f3a52'],
    ['', 'Brand 0b6f3a52'],
    ['tab\tand\nnewline', 'tab and newline'],
    ['CON', 'CON_'],
    ['con.brand', 'con_.brand'],
    ['LPT1', 'LPT1_'],
    ['COM¹', 'COM¹_'],
    ['Console', 'Console'],
    ['\u202eevil', 'evil'],
  ])('%j becomes %j', (input, expected) => {
    expect(safeFolderName(input, ID_A)).toBe(expected);
  });

  it('turns NFD into NFC', () => {
    const nfd = 'Cafe\u0301';
    expect(safeFolderName(nfd, ID_A)).toBe('Caf\u00e9');
  });

  it('cuts long names between graphemes, never inside an emoji', () => {
    const name = 'a'.repeat(MAX_FOLDER_NAME_LENGTH - 1) + '👩‍👩‍👧' + 'tail';
    const safe = safeFolderName(name, ID_A);
    expect(safe).toBe('a'.repeat(MAX_FOLDER_NAME_LENGTH - 1));
    const cjk = '品牌'.repeat(100);
    const cut = safeFolderName(cjk, ID_A);
    expect(cut.length).toBeLessThanOrEqual(MAX_FOLDER_NAME_LENGTH);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(255);
    expect(cjk.startsWith(cut)).toBe(true);
  });
});

describe('uniqueFolderName', () => {
  it('adds (2), (3)… against names taken in any case or Unicode form', () => {
    expect(uniqueFolderName('Acme', ['Other'])).toBe('Acme');
    expect(uniqueFolderName('Acme', ['ACME'])).toBe('Acme (2)');
    expect(uniqueFolderName('Acme', ['acme', 'Acme (2)'])).toBe('Acme (3)');
    expect(uniqueFolderName('Caf\u00e9', ['CAFE\u0301'])).toBe('Caf\u00e9 (2)');
  });

  it('keeps the suffix within the length limit', () => {
    const long = 'x'.repeat(MAX_FOLDER_NAME_LENGTH);
    const unique = uniqueFolderName(long, [long]);
    expect(unique.length).toBeLessThanOrEqual(MAX_FOLDER_NAME_LENGTH);
    expect(unique.endsWith(' (2)')).toBe(true);
  });

  it('folds keys by NFC and case', () => {
    expect(folderNameKey('CAFE\u0301')).toBe(folderNameKey('caf\u00e9'));
  });
});

describe('brand folders on disk', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: root, cleanup } = await makeTempDir());
  });
  afterEach(() => cleanup());

  it('creates a folder with marker and Logo/, and finds it again after a rename', async () => {
    const made = await ensureBrandFolder(root, { id: ID_A, name: 'Acme: Studio' });
    expect(made.created).toBe(true);
    expect(made.folder.dirName).toBe('Acme- Studio');
    expect((await stat(path.join(made.folder.absPath, 'Logo'))).isDirectory()).toBe(true);
    const marker = JSON.parse(await readFile(path.join(made.folder.absPath, MARKER_FILE), 'utf8'));
    expect(marker.brandId).toBe(ID_A);
    // No temp file left behind by the atomic write.
    expect((await readdir(made.folder.absPath)).sort()).toEqual([MARKER_FILE, 'Logo']);

    await rename(made.folder.absPath, path.join(root, 'Renamed by user'));
    const found = await discoverBrandFolders(root);
    expect(found.byBrandId.get(ID_A)?.dirName).toBe('Renamed by user');
    const again = await ensureBrandFolder(root, { id: ID_A, name: 'Acme: Studio' });
    expect(again).toMatchObject({ created: false, adopted: false });
    expect(again.folder.dirName).toBe('Renamed by user');
  });

  it('gives a second brand of the same name (in another case) its own folder', async () => {
    await ensureBrandFolder(root, { id: ID_A, name: 'Acme' });
    const second = await ensureBrandFolder(root, { id: ID_B, name: 'ACME' });
    expect(second.folder.dirName).toBe('ACME (2)');
    const found = await discoverBrandFolders(root);
    expect([...found.byBrandId.keys()].sort()).toEqual([ID_A, ID_B].sort());
  });

  it('adopts a markerless folder the user made with the brand name', async () => {
    await mkdir(path.join(root, 'acme'));
    await writeFile(path.join(root, 'acme', 'photo.png'), 'x');
    const made = await ensureBrandFolder(root, { id: ID_A, name: 'Acme' });
    expect(made).toMatchObject({ created: false, adopted: true });
    expect(made.folder.dirName).toBe('acme');
    expect((await readMarker(made.folder.absPath)).status).toBe('ok');
  });

  it('adopts the folder the user made just after the engine listed the root, not a second one', async () => {
    const listedBefore = await discoverBrandFolders(root); // the root is still empty here
    await mkdir(path.join(root, 'Acme'));
    await writeFile(path.join(root, 'Acme', 'dropped.png'), 'x');
    const made = await ensureBrandFolder(
      root,
      { id: ID_A, name: 'Acme' },
      { discovery: listedBefore },
    );
    expect(made).toMatchObject({ created: false, adopted: true });
    expect(made.folder.dirName).toBe('Acme');
    expect((await readdir(root)).sort()).toEqual(['Acme']);
    expect((await readMarker(path.join(root, 'Acme'))).status).toBe('ok');
  });

  it('detects a copied folder: two markers of one brand, the original keeps the link', async () => {
    const made = await ensureBrandFolder(root, { id: ID_A, name: 'Acme' });
    // The copy's marker is born later than the original's (beyond the clock's grain).
    await new Promise((r) => setTimeout(r, 20));
    await cp(made.folder.absPath, path.join(root, 'Acme copy'), { recursive: true });
    const found = await discoverBrandFolders(root);
    expect(found.byBrandId.get(ID_A)?.dirName).toBe('Acme');
    expect(found.duplicates).toHaveLength(1);
    expect(found.duplicates[0]).toMatchObject({
      brandId: ID_A,
      kept: 'Acme',
      others: ['Acme copy'],
    });
    expect(found.duplicates[0]?.message).toContain('Acme copy');

    // The folder name the store remembers wins over age.
    const preferred = await discoverBrandFolders(root, {
      knownDirNames: new Map([[ID_A, 'Acme copy']]),
    });
    expect(preferred.byBrandId.get(ID_A)?.dirName).toBe('Acme copy');
  });

  it('reports invalid markers and unlinked folders, and skips hidden ones', async () => {
    await mkdir(path.join(root, 'Broken'));
    await writeFile(path.join(root, 'Broken', MARKER_FILE), '{not json');
    await mkdir(path.join(root, 'NoId'));
    await writeFile(path.join(root, 'NoId', MARKER_FILE), JSON.stringify({ brandId: 'nope' }));
    await mkdir(path.join(root, 'Plain'));
    await mkdir(path.join(root, '.Trash'));
    await writeFile(path.join(root, 'loose.png'), 'x');
    const found = await discoverBrandFolders(root);
    expect(found.unlinked).toEqual(['Plain']);
    expect(found.invalid.map((i) => [i.dirName, i.code]).sort()).toEqual([
      ['Broken', 'MARKER_NOT_JSON'],
      ['NoId', 'MARKER_BAD_SHAPE'],
    ]);
    expect(found.byBrandId.size).toBe(0);
  });

  it('rejects a brand ID that is not a UUID, and a missing root, with typed errors', async () => {
    await expect(ensureBrandFolder(root, { id: '../etc', name: 'x' })).rejects.toMatchObject({
      code: 'INVALID_BRAND_ID',
    });
    await expect(
      writeMarker(root, { brandId: 'x', brandName: null, createdAt: '' }),
    ).rejects.toBeInstanceOf(FolderError);
    await expect(discoverBrandFolders(path.join(root, 'missing'))).rejects.toMatchObject({
      code: 'ROOT_MISSING',
    });
  });
});

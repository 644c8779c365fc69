import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { areaOf } from '../../main/engine/folder-parts/folder-layout.ts';
import {
  PathNormaliser,
  probeCaseInsensitive,
  toPathKey,
} from '../../main/engine/folder-parts/path-normalise.ts';
import { makeTempDir } from './fixtures.ts';

describe('areaOf', () => {
  it.each([
    ['photo.png', 'library-upload'],
    ['deep/er/photo.png', 'library-upload'],
    ['Logo/mark.svg', 'logo'],
    ['logo/sub/mark.png', 'logo'],
    ['Logo', 'logo'],
    ['Brand Skill/SKILL.md', 'ignored-reserved'],
    ['BRAND SKILL/x.png', 'ignored-reserved'],
    ['Library/img.png', 'ignored-reserved'],
    ['Libraryish/img.png', 'library-upload'],
    ['sub/Library/img.png', 'library-upload'],
  ])('%s is %s', (rel, area) => {
    expect(areaOf(rel)).toBe(area);
  });
});

describe('PathNormaliser', () => {
  const root = path.resolve('/sync/root');
  const sensitive = new PathNormaliser({ root, caseInsensitive: false });
  const insensitive = new PathNormaliser({ root, caseInsensitive: true });

  it('splits brand folder and relative path, NFC with / separators', () => {
    const n = sensitive.normalise(path.join(root, 'Acme', 'Cafe\u0301', 'Photo.PNG'));
    expect(n).toMatchObject({
      ok: true,
      brandDir: 'Acme',
      relPath: 'Caf\u00e9/Photo.PNG',
      pathKey: 'Caf\u00e9/Photo.PNG',
      area: 'library-upload',
    });
    const nfc = sensitive.normalise(path.join(root, 'Acme', 'Caf\u00e9', 'Photo.PNG'));
    expect(nfc.ok && n.ok && nfc.pathKey === n.pathKey).toBe(true);
  });

  it('folds case into the key only on a case-insensitive disk', () => {
    const p = path.join(root, 'Acme', 'Logo', 'Mark.SVG');
    expect(insensitive.normalise(p)).toMatchObject({
      relPath: 'Logo/Mark.SVG',
      pathKey: 'logo/mark.svg',
      area: 'logo',
    });
    expect(sensitive.normalise(p)).toMatchObject({ pathKey: 'Logo/Mark.SVG' });
    expect(toPathKey('A\u0301.png', true)).toBe('\u00e1.png');
  });

  it('knows the brand folder itself, the root, files in the root and paths outside', () => {
    expect(sensitive.normalise(path.join(root, 'Acme'), true)).toMatchObject({
      ok: true,
      relPath: '',
      brandDir: 'Acme',
    });
    expect(sensitive.normalise(root)).toMatchObject({ ok: false, code: 'IS_ROOT' });
    expect(sensitive.normalise(path.join(root, 'loose.png'), false)).toMatchObject({
      ok: false,
      code: 'NOT_IN_BRAND_FOLDER',
    });
    expect(sensitive.normalise('/elsewhere/x.png')).toMatchObject({
      ok: false,
      code: 'OUTSIDE_ROOT',
    });
    expect(sensitive.normalise(path.join(root, '..', 'rootsibling', 'x.png'))).toMatchObject({
      ok: false,
      code: 'OUTSIDE_ROOT',
    });
    // A relative input is taken relative to the root.
    expect(sensitive.normalise('Acme/a.png')).toMatchObject({ ok: true, relPath: 'a.png' });
  });

  it('builds the same result from brand folder and relative path (the scanner path)', () => {
    const a = sensitive.within('Acme', 'x/Cafe\u0301.png');
    const b = sensitive.normalise(path.join(root, 'Acme', 'x', 'Cafe\u0301.png'));
    expect(a).toEqual(b);
  });
});

describe('probeCaseInsensitive', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
  });
  afterEach(() => cleanup());

  it('agrees with what the disk does with two names differing in case, leaving nothing behind', async () => {
    await writeFile(path.join(dir, 'Twin'), 'a');
    await writeFile(path.join(dir, 'twin'), 'b');
    const before = (await readdir(dir)).sort();
    const diskIgnoresCase = before.length === 1; // the second write landed on the first file
    expect(await probeCaseInsensitive(dir)).toBe(diskIgnoresCase);
    expect((await PathNormaliser.forRoot(dir)).caseInsensitive).toBe(diskIgnoresCase);
    expect((await readdir(dir)).sort()).toEqual(before);
  });

  it('fails with a typed error on a missing root', async () => {
    await expect(probeCaseInsensitive(path.join(dir, 'nope'))).rejects.toMatchObject({
      code: 'ROOT_MISSING',
    });
  });
});

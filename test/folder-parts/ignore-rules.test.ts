import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BrandIgnoreRules,
  IgnoreRulesRegistry,
  isBuiltInIgnored,
} from '../../main/engine/folder-parts/ignore-rules.ts';
import { makeTempDir } from './fixtures.ts';

describe('built-in ignore patterns', () => {
  it.each([
    '.DS_Store',
    'sub/.DS_Store',
    '._photo.png',
    'Thumbs.db',
    'thumbs.db',
    'desktop.ini',
    '~$deck.png',
    'photo.png.tmp',
    'photo.png.part',
    'photo.png.crdownload',
    '.photo.png.swp',
    'photo.png~',
    '.#photo.png',
    '#photo.png#',
    '.~lock.photo.png#',
    '.goutputstream-ABC123',
    '.brand-sync-brand.json',
    '.brand-sync-0a1b2c.tmp',
    '.brandsyncignore',
    'Icon\r',
  ])('ignores %j', (p) => {
    expect(isBuiltInIgnored(p)).toBe(true);
  });

  it.each(['photo.png', 'sub/photo.jpg', '.hidden.png', 'temp.png', 'Icon', 'partner.png'])(
    'keeps %j',
    (p) => {
      expect(isBuiltInIgnored(p)).toBe(false);
    },
  );

  it('ignores system folders', () => {
    expect(isBuiltInIgnored('$RECYCLE.BIN', true)).toBe(true);
    expect(isBuiltInIgnored('x.download', true)).toBe(true);
    expect(isBuiltInIgnored('x.download/inner.png')).toBe(true);
  });
});

describe('a brand ignore file', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
  });
  afterEach(() => cleanup());

  it('applies gitignore syntax and reloads when the file changes', async () => {
    const rules = new BrandIgnoreRules(dir, { caseInsensitive: false });
    expect(await rules.reload()).toEqual({ state: 'none' });
    expect(rules.ignores('raw/shot.png')).toBe(false);

    await writeFile(
      path.join(dir, '.brandsyncignore'),
      '\uFEFF# comment\nraw/\n*.psd.png\n!keep.psd.png\n/top-only.png\r\n',
    );
    expect(await rules.reload()).toEqual({ state: 'loaded', patterns: 4 });
    expect(rules.ignores('raw', true)).toBe(true);
    expect(rules.ignores('raw/shot.png')).toBe(true);
    expect(rules.ignores('deep/raw/shot.png')).toBe(true);
    expect(rules.ignores('x/a.psd.png')).toBe(true);
    expect(rules.ignores('keep.psd.png')).toBe(false);
    expect(rules.ignores('top-only.png')).toBe(true);
    expect(rules.ignores('sub/top-only.png')).toBe(false);
    expect(rules.ignores('RAW/shot.png')).toBe(false); // case-sensitive disk
    expect(rules.ignores('')).toBe(false);

    await writeFile(path.join(dir, '.brandsyncignore'), 'other/\n');
    await rules.reload();
    expect(rules.ignores('raw/shot.png')).toBe(false);
    expect(rules.ignores('other/shot.png')).toBe(true);

    await rm(path.join(dir, '.brandsyncignore'));
    expect(await rules.reload()).toEqual({ state: 'none' });
    expect(rules.ignores('other/shot.png')).toBe(false);
  });

  it('folds case on a case-insensitive disk', async () => {
    await writeFile(path.join(dir, '.brandsyncignore'), 'raw/\n');
    const rules = new BrandIgnoreRules(dir, { caseInsensitive: true });
    await rules.reload();
    expect(rules.ignores('RAW/shot.png')).toBe(true);
  });

  it('holds everything back when the ignore file exists but cannot be used', async () => {
    // A directory in its place cannot be read as a file, even by root.
    await mkdir(path.join(dir, '.brandsyncignore'));
    const rules = new BrandIgnoreRules(dir, { caseInsensitive: false });
    const status = await rules.reload();
    expect(status).toMatchObject({ state: 'unusable', code: 'IGNORE_FILE_UNREADABLE' });
    expect(status.state === 'unusable' && status.message).toContain(
      'nothing in this brand folder is synced',
    );
    expect(rules.ignores('photo.png')).toBe(true);
  });

  it('refuses an oversized ignore file', async () => {
    await writeFile(path.join(dir, '.brandsyncignore'), 'x'.repeat(1024 * 1024 + 1));
    const rules = new BrandIgnoreRules(dir, { caseInsensitive: false });
    expect(await rules.reload()).toMatchObject({
      state: 'unusable',
      code: 'IGNORE_FILE_TOO_LARGE',
    });
  });

  it('the registry loads each brand once and reloads on demand', async () => {
    await mkdir(path.join(dir, 'Acme'));
    await writeFile(path.join(dir, 'Acme', '.brandsyncignore'), 'a.png\n');
    const registry = new IgnoreRulesRegistry(dir, { caseInsensitive: false });
    const first = await registry.rulesFor('Acme');
    expect(await registry.rulesFor('Acme')).toBe(first);
    expect(first.ignores('a.png')).toBe(true);
    await writeFile(path.join(dir, 'Acme', '.brandsyncignore'), 'b.png\n');
    await registry.reload('Acme');
    expect(first.ignores('a.png')).toBe(false);
    expect(first.ignores('b.png')).toBe(true);
    registry.forget('Acme');
    expect(await registry.rulesFor('Acme')).not.toBe(first);
  });
});

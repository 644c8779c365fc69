import { spawnSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IgnoreRulesRegistry } from '../../main/engine/folder-parts/ignore-rules.ts';
import { PathNormaliser } from '../../main/engine/folder-parts/path-normalise.ts';
import {
  type ScanIssue,
  type ScanItem,
  type ScannedFile,
  scanRoot,
} from '../../main/engine/folder-parts/scanner.ts';
import { makePng, makeTempDir } from './fixtures.ts';

describe('scanRoot', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let normaliser: PathNormaliser;
  let rules: IgnoreRulesRegistry;
  beforeEach(async () => {
    ({ dir: root, cleanup } = await makeTempDir());
    normaliser = await PathNormaliser.forRoot(root);
    rules = new IgnoreRulesRegistry(root, { caseInsensitive: normaliser.caseInsensitive });
  });
  afterEach(() => cleanup());

  async function put(rel: string, content: Uint8Array | string = makePng()): Promise<string> {
    const p = path.join(root, ...rel.split('/'));
    await mkdir(path.dirname(p), { recursive: true });
    await writeFile(p, content);
    return p;
  }

  async function scan(opts: { brandDirs?: string[]; signal?: AbortSignal } = {}) {
    const files: ScannedFile[] = [];
    const issues: ScanIssue[] = [];
    for await (const item of scanRoot({ normaliser, rules, ...opts })) {
      if (item.type === 'file') files.push(item);
      else issues.push(item);
    }
    const rels = files.map((f) => `${f.brandDir}:${f.relPath}`).sort();
    return { files, issues, rels };
  }

  it('yields the files of every brand folder, skipping reserved areas and ignored files', async () => {
    await put('Acme/a.png');
    await put('Acme/deep/er/b.jpg');
    await put('Acme/Logo/mark.svg', '<svg/>');
    await put('Acme/Brand Skill/SKILL.md', '# skill');
    await put('Acme/Library/copy.png');
    await put('Acme/library/also-reserved.png');
    await put('Acme/.DS_Store', 'x');
    await put('Acme/sub/Thumbs.db', 'x');
    await put('Acme/c.png.part', 'x');
    await put('Acme/.brand-sync-brand.json', '{}');
    await put('Acme/.brandsyncignore', 'raw/\n*.psd\n');
    await put('Acme/raw/shot.png');
    await put('Acme/x/y.psd', 'x');
    await put('Beta/z.webp', 'x');
    await put('loose.png');
    await put('.hidden-root-dir/q.png');
    const { files, issues, rels } = await scan();
    expect(rels).toEqual(['Acme:Logo/mark.svg', 'Acme:a.png', 'Acme:deep/er/b.jpg', 'Beta:z.webp']);
    const logo = files.find((f) => f.relPath === 'Logo/mark.svg');
    expect(logo).toMatchObject({ area: 'logo', stat: { size: 6 } });
    expect(logo?.absPath).toBe(path.join(root, 'Acme', 'Logo', 'mark.svg'));
    const deep = files.find((f) => f.relPath === 'deep/er/b.jpg');
    expect(deep).toMatchObject({ area: 'library-upload', pathKey: 'deep/er/b.jpg' });
    expect(deep?.stat.ino).toBeGreaterThan(0);
    expect(issues.map((i) => [i.code, path.basename(i.absPath)])).toEqual([
      ['NOT_IN_BRAND_FOLDER', 'loose.png'],
    ]);
  });

  it('scans only the brand folders asked for', async () => {
    await put('Acme/a.png');
    await put('Beta/b.png');
    await put('loose.png');
    const { rels, issues } = await scan({ brandDirs: ['Beta'] });
    expect(rels).toEqual(['Beta:b.png']);
    expect(issues).toEqual([]);
  });

  it('gives NFC and NFD names of the same word one key, and reports the clash', async () => {
    const nfc = 'caf\u00e9.png';
    const nfd = 'cafe\u0301.png';
    await put(`Acme/${nfc}`);
    await put(`Acme/${nfd}`, makePng({ seed: 2 }));
    await put(`Acme/one/${nfd}`);
    await put(`Acme/two/${nfc}`);
    const { files, issues } = await scan();
    const names = files.map((f) => f.relPath).sort();
    expect(names).toEqual([nfc, `one/${nfc}`, `two/${nfc}`].sort());
    for (const f of files) expect(f.relPath).toBe(f.relPath.normalize('NFC'));
    // On disk the two names are two files (ext4 keeps bytes): only one is taken, and said so.
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ code: 'NAME_COLLISION', brandDir: 'Acme' });
  });

  it('follows symlinks inside the root, not out of it, and stops at loops', async () => {
    const { dir: outside, cleanup: cleanOutside } = await makeTempDir('brand-sync-outside-');
    try {
      await writeFile(path.join(outside, 'secret.png'), makePng());
      await put('Acme/real/inner.png');
      await put('Beta/shared/s.png');
      await symlink(path.join(root, 'Beta', 'shared'), path.join(root, 'Acme', 'linked'));
      await symlink(
        path.join(root, 'Acme', 'real', 'inner.png'),
        path.join(root, 'Acme', 'alias.png'),
      );
      await symlink(outside, path.join(root, 'Acme', 'out'));
      await symlink(path.join(outside, 'secret.png'), path.join(root, 'Acme', 'out.png'));
      await symlink('..', path.join(root, 'Acme', 'real', 'up')); // a loop to its parent
      await symlink('self', path.join(root, 'Acme', 'self')); // points at itself
      await symlink('nowhere', path.join(root, 'Acme', 'broken.png'));
      // Two folders linking to each other.
      await mkdir(path.join(root, 'Acme', 'p'));
      await mkdir(path.join(root, 'Acme', 'q'));
      await symlink(path.join(root, 'Acme', 'q'), path.join(root, 'Acme', 'p', 'to-q'));
      await symlink(path.join(root, 'Acme', 'p'), path.join(root, 'Acme', 'q', 'to-p'));
      await symlink(outside, path.join(root, 'LinkedBrand'));

      const { rels, issues } = await scan();
      expect(rels).toContain('Acme:linked/s.png');
      expect(rels).toContain('Acme:alias.png');
      expect(rels).toContain('Acme:real/inner.png');
      expect(rels).toContain('Beta:shared/s.png');
      expect(rels.some((r) => r.includes('secret'))).toBe(false);
      const codes = issues.map((i) => `${i.code} ${path.relative(root, i.absPath)}`).sort();
      expect(codes).toEqual(
        [
          'BROKEN_SYMLINK Acme/broken.png',
          'SYMLINK_AT_ROOT LinkedBrand',
          'SYMLINK_LOOP Acme/p/to-q/to-p',
          'SYMLINK_LOOP Acme/q/to-p/to-q',
          'SYMLINK_LOOP Acme/real/up',
          'SYMLINK_LOOP Acme/self',
          'SYMLINK_OUTSIDE_ROOT Acme/out',
          'SYMLINK_OUTSIDE_ROOT Acme/out.png',
        ].sort(),
      );
    } finally {
      await cleanOutside();
    }
  });

  it('holds back a brand whose ignore file cannot be used, and skips FIFOs', async () => {
    await put('Acme/a.png');
    await mkdir(path.join(root, 'Acme', '.brandsyncignore'));
    await put('Beta/b.png');
    expect(spawnSync('mkfifo', [path.join(root, 'Beta', 'pipe.png')]).status).toBe(0);
    const { rels, issues } = await scan();
    expect(rels).toEqual(['Beta:b.png']);
    expect(issues).toMatchObject([{ code: 'IGNORE_FILE_UNUSABLE', brandDir: 'Acme' }]);
  });

  it('streams thousands of files once each, and stops when the consumer stops', async () => {
    const writes: Promise<string>[] = [];
    for (let d = 0; d < 20; d++) {
      for (let f = 0; f < 150; f++) writes.push(put(`Brand${d % 3}/d${d}/f${f}.png`, 'x'));
    }
    await Promise.all(writes);
    const { files } = await scan();
    expect(files).toHaveLength(3000);
    expect(new Set(files.map((f) => f.absPath)).size).toBe(3000);

    let seen = 0;
    for await (const item of scanRoot({ normaliser, rules })) {
      if (item.type === 'file' && ++seen === 10) break;
    }
    expect(seen).toBe(10);
  });

  it('ends with the abort reason when aborted', async () => {
    for (let f = 0; f < 200; f++) await put(`Acme/f${f}.png`, 'x');
    const controller = new AbortController();
    const seen: ScanItem[] = [];
    const run = async () => {
      for await (const item of scanRoot({ normaliser, rules, signal: controller.signal })) {
        seen.push(item);
        if (seen.length === 5) controller.abort(new Error('stop now'));
      }
    };
    await expect(run()).rejects.toThrow('stop now');
    expect(seen.length).toBeLessThan(200);
  });

  it('fails with a clear error when the root is missing', async () => {
    const missing = new PathNormaliser({ root: path.join(root, 'gone'), caseInsensitive: false });
    const run = async () => {
      for await (const _ of scanRoot({ normaliser: missing, rules })) void _;
    };
    await expect(run()).rejects.toMatchObject({ code: 'ROOT_MISSING' });
  });
});

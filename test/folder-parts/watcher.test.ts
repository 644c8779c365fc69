import chokidar, { type FSWatcher } from 'chokidar';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HasherPool } from '../../main/engine/folder-parts/file-hasher.ts';
import { IgnoreRulesRegistry } from '../../main/engine/folder-parts/ignore-rules.ts';
import { PathNormaliser } from '../../main/engine/folder-parts/path-normalise.ts';
import {
  type StabilityOutcome,
  StabilityTracker,
} from '../../main/engine/folder-parts/stability.ts';
import { FolderWatcher, type WatchEvent } from '../../main/engine/folder-parts/watcher.ts';
import { makePng, makeTempDir } from './fixtures.ts';

async function waitFor(what: string, condition: () => boolean): Promise<void> {
  // Bounded by the test timeout; the message says what never happened.
  for (let i = 0; i < 1000; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const fileEvents = (events: WatchEvent[], type: string) =>
  events.flatMap((e) => (e.type === type && 'file' in e ? [e.file.relPath] : []));

describe('FolderWatcher', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let watcher: FolderWatcher | undefined;
  let events: WatchEvent[];
  let normaliser: PathNormaliser;
  let rules: IgnoreRulesRegistry;

  beforeEach(async () => {
    ({ dir: root, cleanup } = await makeTempDir());
    await mkdir(path.join(root, 'Acme', 'Logo'), { recursive: true });
    await mkdir(path.join(root, 'Acme', 'Brand Skill'));
    await mkdir(path.join(root, 'Acme', 'Library'));
    await mkdir(path.join(root, 'Beta'));
    normaliser = await PathNormaliser.forRoot(root);
    rules = new IgnoreRulesRegistry(root, { caseInsensitive: normaliser.caseInsensitive });
    events = [];
  });
  afterEach(async () => {
    await watcher?.close();
    watcher = undefined;
    await cleanup();
  });

  async function startWatcher(extra: Partial<ConstructorParameters<typeof FolderWatcher>[0]> = {}) {
    watcher = new FolderWatcher({ normaliser, rules, onEvent: (e) => events.push(e), ...extra });
    await watcher.start();
  }

  it('reports normalised add, change and unlink, and nothing for ignored paths', async () => {
    await startWatcher();
    const a = path.join(root, 'Acme', 'sub', 'Cafe\u0301.png');
    await mkdir(path.dirname(a));
    // Moved in whole: written in place, the add can be seen (and stat) before its bytes are.
    const staging = await makeTempDir('brand-sync-staging-');
    await writeFile(path.join(staging.dir, 'staged.png'), makePng());
    await rename(path.join(staging.dir, 'staged.png'), a);
    await staging.cleanup();
    await writeFile(path.join(root, 'Acme', 'Logo', 'mark.svg'), '<svg/>');
    await writeFile(path.join(root, 'Acme', '.DS_Store'), 'x');
    await writeFile(path.join(root, 'Acme', 'upload.png.tmp'), 'x');
    await writeFile(path.join(root, 'Acme', 'Brand Skill', 'SKILL.md'), '#');
    await writeFile(path.join(root, 'Acme', 'Library', 'copy.png'), 'x');
    await writeFile(path.join(root, 'loose.png'), 'x');
    await waitFor('the adds', () => fileEvents(events, 'add').length >= 2);
    const add = events.find((e) => e.type === 'add' && e.file.relPath === 'sub/Caf\u00e9.png');
    expect(add).toMatchObject({
      type: 'add',
      source: 'watch',
      file: { brandDir: 'Acme', area: 'library-upload', absPath: a },
      stat: { size: makePng().length },
    });
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'add',
        file: expect.objectContaining({ relPath: 'Logo/mark.svg', area: 'logo' }),
      }),
    );

    await writeFile(a, makePng({ seed: 9 }));
    await waitFor('the change', () => fileEvents(events, 'change').includes('sub/Caf\u00e9.png'));
    await rm(a);
    await waitFor('the unlink', () => fileEvents(events, 'unlink').includes('sub/Caf\u00e9.png'));

    await watcher?.close();
    const all = events.flatMap((e) =>
      'file' in e ? [e.file.relPath] : 'dir' in e ? [e.dir.relPath] : [],
    );
    expect(all.filter((p) => /DS_Store|\.tmp$|SKILL|copy\.png|loose/.test(p))).toEqual([]);
  });

  it('reloads the brand ignore file when it changes and applies it to later events', async () => {
    await startWatcher();
    await writeFile(path.join(root, 'Acme', '.brandsyncignore'), 'raw/\n');
    await waitFor('the reload', () => events.some((e) => e.type === 'ignore-file-changed'));
    expect(events.find((e) => e.type === 'ignore-file-changed')).toEqual({
      type: 'ignore-file-changed',
      brandDir: 'Acme',
      status: { state: 'loaded', patterns: 1 },
    });
    await mkdir(path.join(root, 'Acme', 'raw'));
    await writeFile(path.join(root, 'Acme', 'raw', 'shot.png'), makePng());
    await writeFile(path.join(root, 'Acme', 'kept.png'), makePng());
    await waitFor('kept.png', () => fileEvents(events, 'add').includes('kept.png'));
    await watcher?.close();
    expect(fileEvents(events, 'add')).not.toContain('raw/shot.png');
  });

  it('reports a new brand folder, and keeps working beside a symlink loop', async () => {
    await symlink('..', path.join(root, 'Acme', 'loop'));
    await startWatcher();
    await mkdir(path.join(root, 'Gamma'));
    await waitFor('the new brand folder', () =>
      events.some((e) => e.type === 'addDir' && e.dir.relPath === '' && e.dir.brandDir === 'Gamma'),
    );
    await writeFile(path.join(root, 'Gamma', 'g.png'), makePng());
    await waitFor('g.png', () => fileEvents(events, 'add').includes('g.png'));
  });

  it('an atomic save (write temp, rename over) ends as the new content, once', async () => {
    const target = path.join(root, 'Acme', 'photo.png');
    await writeFile(target, makePng({ seed: 1 }));
    const settled: StabilityOutcome[] = [];
    const tracker = new StabilityTracker({ windowMs: 300, onSettled: (o) => settled.push(o) });
    await startWatcher({
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'add' || e.type === 'change') tracker.observe(e.file.absPath, e.stat);
        if (e.type === 'unlink') tracker.forget(e.file.absPath);
      },
    });
    const saved = makePng({ width: 8, height: 8, seed: 2 });
    const temp = path.join(root, 'Acme', '.photo.png.swp'); // the editor's temp name
    await writeFile(temp, saved);
    await rename(temp, target);
    await waitFor('the save to settle', () => settled.length > 0);
    tracker.close();
    expect(settled).toMatchObject([
      { status: 'stable', absPath: target, stat: { size: saved.length } },
    ]);
    const pool = new HasherPool({ threads: 1 });
    const hash = await pool.hash(target);
    await pool.close();
    expect(hash).toMatchObject({
      status: 'hashed',
      sha256: createHash('sha256').update(saved).digest('hex'),
    });
    const relPaths = events.flatMap((e) => ('file' in e ? [e.file.relPath] : []));
    expect(relPaths.every((p) => p === 'photo.png')).toBe(true);
  });

  it('1,000 files dropped at once: each reported, settled and hashed once', async () => {
    const settled = new Map<string, StabilityOutcome>();
    const tracker = new StabilityTracker({
      windowMs: 300,
      onSettled: (o) => settled.set(o.absPath, o),
    });
    await startWatcher({
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'add' || e.type === 'change') tracker.observe(e.file.absPath, e.stat);
      },
    });
    // Written elsewhere, then moved in together, as a drop from a file manager does.
    const { dir: staging, cleanup: cleanStaging } = await makeTempDir('brand-sync-staging-');
    const contents = new Map<string, Buffer>();
    try {
      for (let i = 0; i < 1000; i++) {
        const png = makePng({ seed: i });
        contents.set(`drop/${i}.png`, png);
        await writeFile(path.join(staging, `${i}.png`), png);
      }
      await mkdir(path.join(root, 'Acme', 'drop'));
      await Promise.all(
        [...Array(1000).keys()].map((i) =>
          rename(path.join(staging, `${i}.png`), path.join(root, 'Acme', 'drop', `${i}.png`)),
        ),
      );
    } finally {
      await cleanStaging();
    }
    await waitFor('1,000 settled files', () => settled.size === 1000);
    tracker.close();
    const added = new Set(fileEvents(events, 'add'));
    expect(added.size).toBe(1000);
    const pool = new HasherPool({ threads: 2 });
    try {
      const results = await Promise.all([...settled.values()].map((o) => pool.hash(o.absPath)));
      const byPath = new Map([...settled.keys()].map((p, i) => [p, results[i]]));
      for (const [rel, png] of contents) {
        const r = byPath.get(path.join(root, 'Acme', ...rel.split('/')));
        expect(r).toMatchObject({
          status: 'hashed',
          sha256: createHash('sha256').update(png).digest('hex'),
        });
      }
    } finally {
      await pool.close();
    }
    expect([...settled.values()].every((o) => o.status === 'stable')).toBe(true);
    expect(
      Buffer.compare(
        await readFile(path.join(root, 'Acme', 'drop', '7.png')),
        contents.get('drop/7.png')!,
      ),
    ).toBe(0);
  });

  it('when the OS refuses more watches: says so, names the setting, and polls that folder', async () => {
    let inner: FSWatcher | undefined;
    await startWatcher({
      fallbackIntervalMs: 60_000, // polled by hand below
      createWatcher: (r, o) => (inner = chokidar.watch(r, o)),
    });
    const enospc = Object.assign(
      new Error('ENOSPC: System limit for number of file watchers reached'),
      {
        code: 'ENOSPC',
        path: path.join(root, 'Acme', 'Logo'),
      },
    );
    inner?.emit('error', enospc);
    const limit = events.find((e) => e.type === 'watch-limit');
    expect(limit).toMatchObject({
      type: 'watch-limit',
      code: 'ENOSPC',
      brandDir: 'Acme',
      folder: path.join(root, 'Acme'),
      setting: 'fs.inotify.max_user_watches',
      intervalMs: 60_000,
    });
    expect(limit?.type === 'watch-limit' && limit.message).toContain('fs.inotify.max_user_watches');
    expect(watcher?.pollingFolders).toEqual(['Acme']);
    inner?.emit('error', enospc); // the same folder again: one notice
    expect(events.filter((e) => e.type === 'watch-limit')).toHaveLength(1);

    await watcher?.pollNow(); // the first poll only takes the baseline
    await writeFile(path.join(root, 'Acme', 'polled.png'), makePng());
    await writeFile(path.join(root, 'Beta', 'watched.png'), makePng());
    await watcher?.pollNow();
    const polled = (type: string) =>
      events.filter(
        (e) =>
          e.type === type &&
          'source' in e &&
          e.source === 'poll' &&
          e.file.relPath === 'polled.png',
      );
    expect(polled('add')).toHaveLength(1);
    await waitFor('the watched add', () =>
      events.some(
        (e) => e.type === 'add' && e.file.relPath === 'watched.png' && e.source === 'watch',
      ),
    );
    await rm(path.join(root, 'Acme', 'polled.png'));
    await watcher?.pollNow();
    expect(polled('unlink')).toHaveLength(1);
    await watcher?.close();
    expect(
      events.filter((e) => 'file' in e && e.file.relPath === 'polled.png' && e.source === 'watch'),
    ).toEqual([]);
  });

  it('falls back to polling the whole root when the root itself cannot be watched', async () => {
    let inner: FSWatcher | undefined;
    await startWatcher({
      fallbackIntervalMs: 60_000, // polled by hand below
      createWatcher: (r, o) => (inner = chokidar.watch(r, o)),
    });
    inner?.emit('error', Object.assign(new Error('EMFILE'), { code: 'EMFILE', path: root }));
    expect(events.find((e) => e.type === 'watch-limit')).toMatchObject({
      code: 'EMFILE',
      brandDir: null,
      folder: root,
    });
    expect(watcher?.pollingFolders).toEqual([null]);
    await watcher?.pollNow();
    await writeFile(path.join(root, 'Beta', 'b.png'), makePng());
    await watcher?.pollNow();
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'add',
        source: 'poll',
        file: expect.objectContaining({ brandDir: 'Beta', relPath: 'b.png' }),
      }),
    );
  });

  it('passes other watcher errors on as typed events', async () => {
    let inner: FSWatcher | undefined;
    await startWatcher({ createWatcher: (r, o) => (inner = chokidar.watch(r, o)) });
    inner?.emit('error', Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
    expect(events).toContainEqual({ type: 'error', code: 'EIO', message: 'EIO: i/o error' });
  });
});

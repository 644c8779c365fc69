// Which code the bin runs: the sources, or a build of exactly these sources (never a stale
// one). A small project in a temp dir stands in for the real one.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync, utimesSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  build,
  entryToRun,
  sourceDigest,
  sourceStamp,
  STAMP_FILE,
  statsDigest,
} from '../../bin/verified-build.js';
import { BIN } from '../support/run-cli.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
let work: string;
let project: string;

async function put(rel: string, text: string): Promise<string> {
  const file = path.join(project, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

/** A build of the project as it is now, without compiling (the selection only reads it). */
async function fakeBuild(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'cli'), { recursive: true });
  await writeFile(path.join(dir, 'cli/brand-sync.js'), '');
  await writeFile(path.join(dir, STAMP_FILE), JSON.stringify({ sources: sourceDigest(project) }));
}

beforeEach(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'verified-build-'));
  project = path.join(work, 'project');
  await put('tsconfig.json', '{}');
  await put('tsconfig.build.json', '{}');
  await put('main/hosts/cli/main.ts', 'export {};\n');
  await put('simulator/index.ts', 'export {};\n');
});
afterEach(() => rm(work, { recursive: true, force: true }));

describe('without BRAND_SYNC_BUILD_DIR', () => {
  const sources = () => pathToFileURL(path.join(project, 'main/hosts/cli/main.ts')).href;
  const dist = () => pathToFileURL(path.join(project, 'dist/cli/brand-sync.js')).href;

  test('no build: the sources run', () => {
    expect(entryToRun({}, project)).toEqual({ url: sources(), from: 'sources' });
  });

  test('a build of these sources in dist/ runs', async () => {
    await fakeBuild(path.join(project, 'dist'));
    expect(entryToRun({}, project)).toEqual({ url: dist(), from: 'build' });
  });

  test('a source edited after the build: the sources run, not the stale build', async () => {
    await fakeBuild(path.join(project, 'dist'));
    await put('simulator/index.ts', 'export const edited = true;\n');
    expect(entryToRun({}, project)).toEqual({ url: sources(), from: 'sources' });
  });

  test('a source added or a config changed after the build counts as an edit', async () => {
    await fakeBuild(path.join(project, 'dist'));
    await put('main/engine/new-module.ts', 'export {};\n');
    expect(entryToRun({}, project).from).toBe('sources');
    await fakeBuild(path.join(project, 'dist'));
    await put('tsconfig.build.json', '{ "compilerOptions": {} }');
    expect(entryToRun({}, project).from).toBe('sources');
  });

  test('BRAND_SYNC_FROM_SOURCES=1 runs the sources beside a matching build', async () => {
    await fakeBuild(path.join(project, 'dist'));
    expect(entryToRun({ BRAND_SYNC_FROM_SOURCES: '1' }, project)).toEqual({
      url: sources(),
      from: 'sources',
    });
    const both = entryToRun(
      { BRAND_SYNC_FROM_SOURCES: '1', BRAND_SYNC_BUILD_DIR: path.join(project, 'dist') },
      project,
    );
    expect(both.error).toMatch(/BRAND_SYNC_BUILD_DIR and BRAND_SYNC_FROM_SOURCES=1 ask for both/);
  });

  describe("the stamp's stats stand for the sources while they match", () => {
    /**
     * The stamp with the sources' stats (racyMs 0: these files were written just now). It waits
     * for the clock to pass the sources' times first: Date.now() is whole ms and a file's times
     * have a fraction, so a file written in the same ms is newer than the stamp and gives none.
     */
    async function settledStamp(): Promise<ReturnType<typeof sourceStamp>> {
      while (Date.now() <= statsDigest(project).newest) await new Promise((r) => setTimeout(r, 2));
      const stamp = sourceStamp(project, 0);
      expect(stamp.stats).toMatch(/^[0-9a-f]{64}$/);
      return stamp;
    }

    async function statsBuild(dir: string, stamp?: ReturnType<typeof sourceStamp>): Promise<void> {
      await fakeBuild(dir);
      await writeFile(path.join(dir, STAMP_FILE), JSON.stringify(stamp ?? (await settledStamp())));
    }

    test('unchanged stats: the build runs, its contents not read again', async () => {
      const stamp = await settledStamp();
      // A content digest that matches nothing: only the stats can have passed it.
      await statsBuild(path.join(project, 'dist'), { ...stamp, sources: 'not-read' });
      expect(entryToRun({}, project)).toEqual({ url: dist(), from: 'build' });
    });

    test('an edit that keeps the size and puts the mtime back is still an edit', async () => {
      const file = path.join(project, 'simulator/index.ts');
      const at = Math.floor(Date.now() / 1000) - 60; // whole seconds: put back exactly
      utimesSync(file, at, at);
      const before = statSync(file);
      await statsBuild(path.join(project, 'dist'));
      await new Promise((r) => setTimeout(r, 20)); // a ctime of its own
      await writeFile(file, 'export {};//\n'.slice(0, before.size));
      utimesSync(file, at, at);
      expect(statSync(file).size).toBe(before.size);
      expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
      expect(entryToRun({}, project)).toEqual({ url: sources(), from: 'sources' });
    });

    test('stats that changed with the same contents (a touch): the contents decide', async () => {
      await statsBuild(path.join(project, 'dist'));
      const file = path.join(project, 'simulator/index.ts');
      utimesSync(file, new Date(), new Date(Date.now() + 5000));
      expect(entryToRun({}, project)).toEqual({ url: dist(), from: 'build' });
    });

    test('sources changed just before the stamp: it holds no stats, the contents decide', () => {
      expect(sourceStamp(project)).toEqual({ sources: sourceDigest(project), stats: null });
    });
  });

  test('a dist/ without a stamp (an older or partial build) is not run', async () => {
    await mkdir(path.join(project, 'dist/cli'), { recursive: true });
    await writeFile(path.join(project, 'dist/cli/brand-sync.js'), '');
    expect(entryToRun({}, project).from).toBe('sources');
  });
});

describe('BRAND_SYNC_BUILD_DIR names the build that must run', () => {
  test('a build of these sources runs', async () => {
    const dir = path.join(work, 'build');
    await fakeBuild(dir);
    expect(entryToRun({ BRAND_SYNC_BUILD_DIR: dir }, project)).toEqual({
      url: pathToFileURL(path.join(dir, 'cli/brand-sync.js')).href,
      from: 'build',
    });
  });

  test('a stale build is refused, saying so', async () => {
    const dir = path.join(work, 'build');
    await fakeBuild(dir);
    await put('main/hosts/cli/main.ts', 'export const edited = true;\n');
    const entry = entryToRun({ BRAND_SYNC_BUILD_DIR: dir }, project);
    expect(entry.error).toMatch(/BRAND_SYNC_BUILD_DIR: .* was built from other sources .*stale/);
  });

  test('a folder that is no build is refused, saying how to make one', async () => {
    const entry = entryToRun({ BRAND_SYNC_BUILD_DIR: work }, project);
    expect(entry.error).toMatch(
      /holds no build-stamp\.json \(build it with: node bin\/verified-build\.js build/,
    );
  });

  test('the bin refuses it in one line and exits 1', () => {
    const run = spawnSync(process.execPath, [BIN, '--help'], {
      env: { PATH: process.env.PATH, BRAND_SYNC_BUILD_DIR: work },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^brand-sync: BRAND_SYNC_BUILD_DIR: .* holds no build-stamp\.json/);
  });
});

/** The project's configs as a real build needs them. */
async function compilable(): Promise<void> {
  await put('package.json', '{ "type": "module" }\n');
  await put(
    'tsconfig.json',
    JSON.stringify({
      compilerOptions: {
        target: 'es2024',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        rewriteRelativeImportExtensions: true,
        allowImportingTsExtensions: true,
        strict: true,
        types: ['node'],
      },
    }),
  );
  await put(
    'tsconfig.build.json',
    JSON.stringify({ extends: './tsconfig.json', include: ['main', 'simulator'] }),
  );
}

test('build compiles and bundles into a folder outside the project, stamps it, and it runs', async () => {
  await compilable();
  await put('main/hosts/cli/greeting.ts', "export const greeting: string = 'from the build';\n");
  // The worker is found beside the module that starts it, as file-hasher.ts finds its own.
  await put(
    'main/engine/folder-parts/hash-worker.ts',
    "import { parentPort } from 'node:worker_threads';\nparentPort?.postMessage('and its worker');\n",
  );
  await put(
    'main/hosts/cli/main.ts',
    [
      "import { Worker } from 'node:worker_threads';",
      "import { greeting } from './greeting.ts';",
      'console.log(greeting);',
      "const name: string = './hash-worker.js';",
      'const worker = new Worker(new URL(name, import.meta.url));',
      "worker.once('message', (m) => { console.log(m); void worker.terminate(); });",
      '',
    ].join('\n'),
  );
  // The desktop preload: bundled to one CommonJS file that requires electron alone.
  await put('contract/names.ts', "export const NAMES = ['status', 'pause'] as const;\n");
  await put(
    'preload/preload.ts',
    "import { contextBridge } from 'electron';\nimport { NAMES } from '../contract/names.ts';\ncontextBridge.exposeInMainWorld('x', NAMES);\n",
  );
  await symlink(path.join(REPO, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  const out = path.join(work, 'out');

  await build(out, project);
  const preload = await readFile(path.join(out, 'preload', 'preload.cjs'), 'utf8');
  expect(preload).toContain('require("electron")');
  expect(preload).toContain('"pause"');
  expect([...preload.matchAll(/require\((["'])([^"']+)\1\)/g)].map((m) => m[2])).toEqual([
    'electron',
  ]);

  expect(JSON.parse(await readFile(path.join(out, STAMP_FILE), 'utf8'))).toEqual({
    sources: sourceDigest(project),
    stats: null, // its sources were written just before: the contents decide
  });
  expect(JSON.parse(await readFile(path.join(out, 'package.json'), 'utf8'))).toEqual({
    type: 'module',
  });
  // One bundle: the imported module is inside it, not beside it.
  const cli = (await readdir(path.join(out, 'cli'))).filter((f) => !f.endsWith('.map'));
  expect(cli.sort()).toEqual(['brand-sync.js', 'hash-worker.js']);
  const entry = entryToRun({ BRAND_SYNC_BUILD_DIR: out }, project);
  expect(entry.from).toBe('build');
  const ran = spawnSync(process.execPath, [fileURLToPath(entry.url as string)], {
    encoding: 'utf8',
  });
  expect(ran.stderr).toBe('');
  expect(ran.stdout.trim().split('\n')).toEqual(['from the build', 'and its worker']);
});

test('a build with a worker entry missing fails, and leaves no stamp', async () => {
  await compilable();
  await symlink(path.join(REPO, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  const out = path.join(work, 'out');
  await expect(build(out, project)).rejects.toThrow(/worker entry .*hash-worker\.ts is missing/);
  expect(existsSync(path.join(out, STAMP_FILE))).toBe(false);
});

describe("npm's prepare (bin/install-build.js) builds dist/ at install", () => {
  const INSTALL = fileURLToPath(new URL('../../bin/install-build.js', import.meta.url));
  const install = () =>
    spawnSync(process.execPath, [INSTALL, project], { encoding: 'utf8', env: process.env });

  test('a clone that compiles gets a stamped dist/, and the bin of that clone runs it', async () => {
    await compilable();
    await put('main/hosts/cli/main.ts', "console.log('from dist');\n");
    await put('main/engine/folder-parts/hash-worker.ts', 'export {};\n');
    await put('preload/preload.ts', 'export {};\n');
    await symlink(path.join(REPO, 'node_modules'), path.join(project, 'node_modules'), 'dir');
    const run = install();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`brand-sync: built ${path.join(project, 'dist')}`);
    expect(entryToRun({}, project).from).toBe('build');
  });

  test('sources that do not compile: the install goes on, one line says the sources run', async () => {
    await compilable();
    await put('main/hosts/cli/main.ts', "const n: number = 'not a number';\nexport { n };\n");
    await put('main/engine/folder-parts/hash-worker.ts', 'export {};\n');
    await symlink(path.join(REPO, 'node_modules'), path.join(project, 'node_modules'), 'dir');
    const run = install();
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(
      /^brand-sync: no build made \(tsc failed .*\); the bin runs the sources$/m,
    );
    expect(existsSync(path.join(project, 'dist', STAMP_FILE))).toBe(false);
    expect(entryToRun({}, project).from).toBe('sources');
  });

  test('without the dev tools (npm ci --omit=dev), the same: no build, the sources run', async () => {
    await compilable();
    const run = install();
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(
      /^brand-sync: no build made \(typescript is not installed \(a build needs the dev dependencies\)\); the bin runs the sources$/m,
    );
    expect(entryToRun({}, project).from).toBe('sources');
  });
});

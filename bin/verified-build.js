// Which code the bin runs: the TypeScript sources (Node's type stripping), or a build of
// exactly those sources. The build the bin runs is one bundle of the command line (rolldown,
// minified: dependencies included and pruned, one module instead of some 300), which starts
// faster and keeps an idle `run` about 40 MB smaller than the sources do (no type-stripping
// compiler, no TypeScript text, less code held in memory).
//
// A build carries a stamp, the digest of the sources it was made from; the bin runs a build
// only while that digest is the digest of the sources beside it now. An edit after a build
// therefore never runs stale: without a matching build, the sources run. The stamp also holds
// a digest of the sources' stats (statsDigest): while those still match, the contents are not
// read again (a cold start's check: 17 to 22 ms instead of 28 to 37).
//   node bin/verified-build.js build DIR   compiles (tsconfig.build.json) into DIR for the
//                                          desktop hosts, bundles the CLI into DIR/cli, stamps
//   BRAND_SYNC_BUILD_DIR=DIR               the bin must run that build (refuses a stale one)
//   BRAND_SYNC_FROM_SOURCES=1              the bin runs the sources, whatever build there is
// Plain JavaScript, like the bin: it runs before any TypeScript can. The bin loads this file
// on every start, so what only a build needs is loaded inside build().
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const PROJECT = fileURLToPath(new URL('..', import.meta.url));
export const STAMP_FILE = 'build-stamp.json';
export const BUILD_DIR_ENV = 'BRAND_SYNC_BUILD_DIR';
export const FROM_SOURCES_ENV = 'BRAND_SYNC_FROM_SOURCES';
const SOURCE_ENTRY = 'main/hosts/cli/main.ts';
const BUILD_ENTRY = 'cli/brand-sync.js';
// Worker threads are entries of their own, written beside the CLI: file-hasher.ts starts its
// worker from `./hash-worker.js` next to itself.
const WORKER_ENTRIES = { 'hash-worker': 'main/engine/folder-parts/hash-worker.ts' };
// Native modules stay outside the bundle (their binaries are found beside their package), and
// so does what only the simulator needs.
const EXTERNAL = [/^node:/, 'better-sqlite3', '@napi-rs/keyring', 'fastify', '@fastify/multipart'];
// What tsconfig.build.json compiles, and the files that decide how; the bundle also holds the
// dependencies, so the lock file counts as a source.
const SOURCE_DIRS = ['main', 'contract', 'preload', 'simulator'];
const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

/** Every build input, relative to the project, in a fixed order. */
function inputFiles(project) {
  const files = [...CONFIG_FILES];
  const walk = (rel) => {
    const abs = path.join(project, rel);
    if (!existsSync(abs)) return;
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.ts')) files.push(child);
    }
  };
  SOURCE_DIRS.forEach(walk);
  return files.sort();
}

/** sha256 over the path and bytes of every build input, in a fixed order. */
export function sourceDigest(project = PROJECT) {
  const hash = createHash('sha256');
  for (const rel of inputFiles(project)) {
    const abs = path.join(project, rel);
    hash.update(`${rel}\0`);
    hash.update(existsSync(abs) ? readFileSync(abs) : '(none)');
    hash.update('\0');
  }
  return hash.digest('hex');
}

// A change this recent may not show in the stats: a disk that keeps times to the second (or
// two) can give a file edited again within that second the same times.
const RACY_MS = 3000;

/**
 * sha256 over the path, size, inode, mtime and ctime of every build input, and the newest of
 * those times. Writing a file changes its ctime, and nothing but the clock can set a ctime
 * back, so an edit changes this digest even where its size stays and its mtime is put back.
 */
export function statsDigest(project = PROJECT) {
  const hash = createHash('sha256');
  let newest = 0;
  for (const rel of inputFiles(project)) {
    const s = statSync(path.join(project, rel), { throwIfNoEntry: false });
    if (s !== undefined) newest = Math.max(newest, s.mtimeMs, s.ctimeMs);
    const line = s === undefined ? '(none)' : `${s.size}:${s.ino}:${s.mtimeMs}:${s.ctimeMs}`;
    hash.update(`${rel}\0${line}\0`);
  }
  return { digest: hash.digest('hex'), newest };
}

/**
 * What a build's stamp says of the sources: their digest, and the digest of their stats when
 * the stats can stand for them (taken first: an edit between the two leaves stats that match
 * no file any more, so the contents decide). None when a source changed within `racyMs`.
 */
export function sourceStamp(project = PROJECT, racyMs = RACY_MS) {
  const takenAt = Date.now();
  const stats = statsDigest(project);
  const sources = sourceDigest(project);
  return { sources, stats: takenAt - stats.newest >= racyMs ? stats.digest : null };
}

/** Why `dir` is not a build of the current sources, or null when it is one. */
export function buildProblem(dir, project = PROJECT) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(path.join(dir, STAMP_FILE), 'utf8'));
  } catch {
    return `${dir} holds no ${STAMP_FILE} (build it with: node bin/verified-build.js build ${dir})`;
  }
  if (!existsSync(path.join(dir, BUILD_ENTRY))) return `${dir} has no ${BUILD_ENTRY}`;
  // Stats unchanged since the build: the same files, not read again. Else their contents decide.
  if (typeof stamp?.stats === 'string' && stamp.stats === statsDigest(project).digest) return null;
  if (stamp?.sources !== sourceDigest(project)) {
    return `${dir} was built from other sources than the ones in ${project} (stale: build it again)`;
  }
  return null;
}

/**
 * The module the bin imports: the sources when BRAND_SYNC_FROM_SOURCES=1, the build named by
 * BRAND_SYNC_BUILD_DIR (which must match the sources), else `dist/` when it matches them
 * (`npm ci` makes it), else the sources.
 */
export function entryToRun(env = process.env, project = PROJECT) {
  const sources = { url: pathToFileURL(path.join(project, SOURCE_ENTRY)).href, from: 'sources' };
  const asked = env[BUILD_DIR_ENV];
  if (env[FROM_SOURCES_ENV] === '1') {
    if (asked) return { error: `${BUILD_DIR_ENV} and ${FROM_SOURCES_ENV}=1 ask for both` };
    return sources;
  }
  if (asked) {
    const dir = path.resolve(asked);
    const problem = buildProblem(dir, project);
    if (problem !== null) return { error: `${BUILD_DIR_ENV}: ${problem}` };
    return { url: pathToFileURL(path.join(dir, BUILD_ENTRY)).href, from: 'build' };
  }
  const dist = path.join(project, 'dist');
  // A dist/ without a stamp (an older build, or one of the renderer alone) is not a candidate.
  if (existsSync(path.join(dist, STAMP_FILE)) && buildProblem(dist, project) === null) {
    return { url: pathToFileURL(path.join(dist, BUILD_ENTRY)).href, from: 'build' };
  }
  return sources;
}

/**
 * Compiles the sources into `outDir` (tsc, for the desktop hosts and packaging), bundles the
 * CLI into `outDir/cli`, and stamps the result. The digest is taken before and after: sources
 * edited meanwhile leave the build unstamped. A build outside the project gets a package.json
 * (ES modules) and a link to the project's node_modules, for what stays outside the bundle.
 */
export async function build(outDir, project = PROJECT) {
  const { spawnSync } = await import('node:child_process');
  const { createRequire } = await import('node:module');
  const out = path.resolve(outDir);
  mkdirSync(out, { recursive: true });
  rmSync(path.join(out, STAMP_FILE), { force: true });
  const before = sourceStamp(project);
  const require = createRequire(path.join(project, 'package.json'));
  const tsc = tool(require, 'typescript/bin/tsc');
  const run = spawnSync(
    process.execPath,
    [tsc, '-p', path.join(project, 'tsconfig.build.json'), '--outDir', out],
    { stdio: 'inherit' },
  );
  if (run.status !== 0) throw new Error(`tsc failed (exit ${run.status ?? run.signal})`);
  await bundleCli(path.join(out, path.dirname(BUILD_ENTRY)), project, require);
  await bundlePreload(path.join(out, 'preload'), project, require);
  if (sourceDigest(project) !== before.sources) {
    throw new Error('the sources changed while they were compiled: build again');
  }
  const inside = path.relative(project, out);
  if (inside.startsWith('..') || path.isAbsolute(inside)) {
    writeFileSync(path.join(out, 'package.json'), '{ "type": "module" }\n');
    if (!existsSync(path.join(out, 'node_modules'))) {
      symlinkSync(path.join(project, 'node_modules'), path.join(out, 'node_modules'), 'dir');
    }
  }
  writeFileSync(path.join(out, STAMP_FILE), `${JSON.stringify(before)}\n`);
  return out;
}

/** Where a build tool is; a clear error without the dev dependencies (`--omit=dev`). */
function tool(require, id) {
  try {
    return require.resolve(id);
  } catch {
    const name = id.split('/')[0];
    throw new Error(`${name} is not installed (a build needs the dev dependencies)`);
  }
}

/** The CLI and its workers as one minified bundle (plus chunks loaded on demand) in `dir`. */
async function bundleCli(dir, project, require) {
  const input = { [path.basename(BUILD_ENTRY, '.js')]: path.join(project, SOURCE_ENTRY) };
  for (const [name, rel] of Object.entries(WORKER_ENTRIES)) {
    const file = path.join(project, rel);
    if (!existsSync(file)) throw new Error(`the worker entry ${rel} is missing`);
    input[name] = file;
  }
  rmSync(dir, { recursive: true, force: true });
  const { build: rolldown } = await import(pathToFileURL(tool(require, 'rolldown')).href);
  await rolldown({
    cwd: project,
    input,
    platform: 'node',
    external: EXTERNAL,
    logLevel: 'warn',
    output: {
      dir,
      format: 'esm',
      minify: true,
      // Stack traces can be mapped back (node --enable-source-maps); nothing loads them else.
      sourcemap: true,
      entryFileNames: '[name].js',
      // Flat: every chunk sits beside the workers it may start.
      chunkFileNames: '[name]-[hash].js',
    },
  });
}

/**
 * The desktop window's preload as one CommonJS file: a sandboxed preload can require nothing
 * but `electron`, so its few imports (the channel names) are bundled in.
 */
async function bundlePreload(dir, project, require) {
  const { build: rolldown } = await import(pathToFileURL(tool(require, 'rolldown')).href);
  await rolldown({
    cwd: project,
    input: { preload: path.join(project, 'preload', 'preload.ts') },
    platform: 'node',
    external: ['electron'],
    logLevel: 'warn',
    output: { dir, format: 'cjs', entryFileNames: '[name].cjs' },
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const [command, dir] = process.argv.slice(2);
  if (command !== 'build' || !dir) {
    process.stderr.write('usage: node bin/verified-build.js build DIR\n');
    process.exit(2);
  }
  try {
    console.log(`built and stamped ${await build(dir)}`);
  } catch (error) {
    process.stderr.write(`verified-build: ${error instanceof Error ? error.message : error}\n`);
    process.exit(1);
  }
}

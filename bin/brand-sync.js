#!/usr/bin/env node
// Plain JavaScript that any Node can parse, so an old Node gets one clear line instead of a
// syntax error. The CLI is TypeScript, run by Node's built-in type stripping, or the compiled
// build of exactly these sources when there is one (verified-build.js: never a stale build).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `brand-sync needs Node.js 22.12 or newer (this is ${process.version}); run it through npm or npx in the project, which use the pinned Node 24.\n`,
  );
  process.exit(1);
}
// `run` lives for days, and two runtime settings keep it small at rest; both only take effect
// at start, so `run` re-executes itself once with them (same process ID, arguments and Node
// flags; an argument `run` elsewhere, a brand named so, only costs that one restart):
// - glibc's malloc gives busy threads arenas of their own (up to 8 per core) and keeps what
//   was freed in each: MALLOC_ARENA_MAX=1 keeps it to one heap, some 7 MB less after a scan of
//   10,000 files and 20 MB after 100,000 (bench/folder-sync.bench.ts, idle);
// - V8's memory reducer never sees an idle process (it waits for a garbage collection that
//   never comes) and, once main/hosts/cli/idle-memory.ts has collected, runs two more full
//   collections that free nothing more: --no-memory-reducer (idle-memory.ts does its job).
const TUNED = '--no-memory-reducer';
if (
  process.argv.slice(2).includes('run') &&
  !process.execArgv.includes(TUNED) &&
  typeof process.execve === 'function'
) {
  const env = { ...process.env };
  if (process.platform === 'linux') env.MALLOC_ARENA_MAX ??= '1';
  try {
    process.execve(
      process.execPath,
      [process.execPath, TUNED, ...process.execArgv, ...process.argv.slice(1)],
      env,
    );
  } catch {
    // Not re-executed: it runs as it is.
  }
}
const { enableCompileCache } = await import('./compile-cache.js');
enableCompileCache();
const { entryToRun } = await import('./verified-build.js');
const entry = entryToRun();
if (entry.error) {
  process.stderr.write(`brand-sync: ${entry.error}\n`);
  process.exit(1);
}
await import(entry.url);

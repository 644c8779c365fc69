// Node's compile cache for the bin: the TypeScript sources are type-stripped and compiled on
// every start otherwise (some 0.3 s of CPU before a command does anything; a `sync --once`
// from cron pays it each time). The cache keeps both, keyed by each file's contents, so an
// edited source is compiled afresh and never served stale.
//
// It lives in the person's own cache directory, made private (0700): a cache in the shared
// temporary directory (Node's default) could be planted by another local account, and it
// holds code this process runs. NODE_COMPILE_CACHE (a directory) or
// NODE_DISABLE_COMPILE_CACHE=1 still decide when set. Plain JavaScript, like the bin.
import { mkdirSync, statSync } from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';

/** The per-user cache directory of this platform, or null when there is no home. */
export function compileCacheDir(env = process.env, platform = process.platform) {
  const home = os.homedir();
  if (platform === 'win32') {
    const base = env.LOCALAPPDATA || (home && path.join(home, 'AppData', 'Local'));
    return base ? path.join(base, 'brand-sync', 'Cache', 'node-compile-cache') : null;
  }
  if (!home) return null;
  if (platform === 'darwin')
    return path.join(home, 'Library', 'Caches', 'brand-sync', 'node-compile-cache');
  const base =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : path.join(home, '.cache');
  return path.join(base, 'brand-sync', 'node-compile-cache');
}

/** Turns the cache on when it can be private; any failure leaves it off (only slower). */
export function enableCompileCache() {
  if (typeof module.enableCompileCache !== 'function') return;
  if (process.env.NODE_DISABLE_COMPILE_CACHE || process.env.NODE_COMPILE_CACHE) return;
  try {
    const dir = compileCacheDir();
    if (dir === null) return;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const s = statSync(dir);
    // Someone else's directory, or one others may write to: not ours to run code from.
    if (process.platform !== 'win32') {
      if (typeof process.getuid === 'function' && s.uid !== process.getuid()) return;
      if ((s.mode & 0o022) !== 0) return;
    }
    const { status } = module.enableCompileCache(dir);
    // The call covers this thread only: the hasher's worker threads read the variable (its
    // first answer came some 80 ms later without it, each `sync --once`).
    if (status === module.constants.compileCacheStatus.ENABLED)
      process.env.NODE_COMPILE_CACHE = dir;
  } catch {
    // No cache: every start compiles, as before.
  }
}

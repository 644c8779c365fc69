// Crash tests: a child process doing the real work, killed with SIGKILL at a chosen
// moment, and a seeded random source so that a failing round can be replayed.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

// Every child starts from the TypeScript sources. Node's compile cache (a private directory for
// this test process) spares each start after the first the type stripping and compiling,
// which on a loaded machine took most of a round: 20 rounds went past the test's time limit.
// A child killed with SIGKILL writes nothing to it; the cache is keyed by file contents.
// Removed after the test file's tests: a vitest worker is ended without its 'exit' event, so
// a cleanup there left one directory behind per test file and run.
let compileCache: string | undefined;
function compileCacheDir(): string {
  compileCache ??= mkdtempSync(path.join(os.tmpdir(), 'crash-child-cache-'));
  return compileCache;
}
afterAll(() => {
  if (compileCache !== undefined) rmSync(compileCache, { recursive: true, force: true });
  compileCache = undefined;
});

export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
  /** stdout and stderr, for assertion messages. */
  output: string;
}

/** Runs `script` (a .ts fixture) with `config` as JSON; SIGKILLs it after `killAfterMs`, if given. */
export function runChild(script: string, config: unknown, killAfterMs?: number): Promise<ChildRun> {
  const started = performance.now();
  const proc = spawn(process.execPath, [script, JSON.stringify(config)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_COMPILE_CACHE: compileCacheDir() },
  });
  let output = '';
  proc.stdout.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const timer =
    killAfterMs === undefined ? undefined : setTimeout(() => proc.kill('SIGKILL'), killAfterMs);
  return new Promise((resolve) => {
    proc.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, ms: performance.now() - started, output });
    });
  });
}

/** xorshift32: seeded, so a failing run can be replayed with its seed (CRASH_SEED). */
export function prng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

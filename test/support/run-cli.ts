// Runs the real `brand-sync` bin as a child process (never blocking this process, so an
// in-process simulator keeps answering), and checks what every run must satisfy: the key
// never reaches the terminal, and no stack trace ever does.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const BIN = fileURLToPath(new URL('../../bin/brand-sync.js', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: readonly string[],
  env: Record<string, string | undefined>,
  secret?: string,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (secret) expect(stdout + stderr).not.toContain(secret);
      expect(stderr).not.toMatch(/\n\s+at /);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The bin running in the background: its output so far, and its exit code once it ends. */
export interface CliChild {
  readonly stdout: string;
  readonly stderr: string;
  /** Null while it runs. */
  readonly exitCode: number | null;
  readonly exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

export function startCli(
  args: readonly string[],
  env: Record<string, string | undefined>,
): CliChild {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    get exitCode() {
      return child.exitCode;
    },
    exited,
    kill: (signal) => void child.kill(signal),
  };
}

/**
 * Runs `brand-sync run` until `during` is done (it starts once run says it is running), then
 * stops it with SIGTERM, as a user's Ctrl-C or a service manager would.
 */
export async function whileRunning(
  env: Record<string, string | undefined>,
  during: () => Promise<void>,
  args: readonly string[] = [],
): Promise<CliRun> {
  const child = startCli(['run', ...args], env);
  try {
    // "Brand Sync is running" on stderr, or its event as a JSON line with --json.
    for (
      let i = 0;
      !/Brand Sync is running|"type":"running"/.test(child.stderr + child.stdout);
      i++
    ) {
      if (child.exitCode !== null || i > 1500)
        throw new Error(`run did not start: ${child.stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await during();
  } finally {
    child.kill('SIGTERM');
  }
  return { code: await child.exited, stdout: child.stdout, stderr: child.stderr };
}

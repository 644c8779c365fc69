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

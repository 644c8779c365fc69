// The bin on a Node older than 22.12 (this machine's and CI's own Node is 20): one clear
// line and exit 1, instead of a syntax or loader error. Skips where no old Node is found.
import { spawnSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { BIN } from '../support/run-cli.ts';

/** A `node` on the PATH outside node_modules whose major version is below 22. */
function findOldNode(): string | null {
  const found = spawnSync('sh', ['-c', 'which -a node'], { encoding: 'utf8' }).stdout;
  for (const candidate of found.split('\n').filter((p) => p && !p.includes('node_modules'))) {
    const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (Number(/^v(\d+)/.exec(version)?.[1] ?? 99) < 22) return candidate;
  }
  return null;
}

const oldNode = findOldNode();

test.skipIf(oldNode === null)(
  `on an old Node the bin says so in one line ${oldNode === null ? '(no Node older than 22 on this machine)' : ''}`,
  () => {
    const run = spawnSync(oldNode as string, [BIN, '--help'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^brand-sync needs Node\.js 22\.12 or newer \(this is v\d+\.\d+\.\d+\)/,
    );
  },
);

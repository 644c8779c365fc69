// The README's commands on a machine whose own Node is older than the pinned one (this one's
// is 20): `npm ci` and `npx brand-sync …` print their own output, not pages of npm's
// EBADENGINE warnings (.npmrc keeps npm to errors). Skips where no older Node is found.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from 'vitest';

/** The machine's own npm, run by a Node older than 22, outside node_modules; or null. */
function machineNpm(): { npm: string; path: string } | null {
  const dirs = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((d) => d && !d.includes('node_modules'));
  for (const dir of dirs) {
    const node = path.join(dir, 'node');
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
    const major = Number(/^v(\d+)/.exec(version)?.[1] ?? 99);
    if (major < 22 && spawnSync(path.join(dir, 'npm'), ['--version']).status === 0) {
      return { npm: path.join(dir, 'npm'), path: dirs.join(path.delimiter) };
    }
  }
  return null;
}

const machine = machineNpm();

test.skipIf(machine === null)(
  `npm ci on an older Node prints no EBADENGINE warning ${machine === null ? '(no Node older than 22 here)' : ''}`,
  () => {
    const run = spawnSync(machine!.npm, ['ci', '--dry-run', '--ignore-scripts'], {
      cwd: path.resolve('.'),
      env: { HOME: process.env.HOME, PATH: machine!.path },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout + run.stderr).not.toMatch(/EBADENGINE|npm warn/i);
  },
  150_000,
);

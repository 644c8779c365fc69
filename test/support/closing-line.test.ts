// The closing line counts every failure: a test that fails, and a file that fails outside
// its tests (a failing beforeAll, an import error), which leaves its tests skipped.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';

const REPO = path.resolve('.');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'closing-line-'));
  await symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  await writeFile(
    path.join(dir, 'vitest.config.mjs'),
    `export default { test: { include: ['*.test.mjs'], reporters: [${JSON.stringify(path.join(REPO, 'test/support/closing-line-reporter.ts'))}] } };\n`,
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(files: Record<string, string>): Promise<string> {
  for (const [name, code] of Object.entries(files)) await writeFile(path.join(dir, name), code);
  const result = spawnSync(
    process.execPath,
    [path.join(REPO, 'node_modules/vitest/vitest.mjs'), 'run'],
    {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  for (const name of Object.keys(files)) await rm(path.join(dir, name));
  const line = /tests: \d+ passed, \d+ failed, \d+ skipped/.exec(result.stdout)?.[0];
  if (!line) throw new Error(`no closing line:\n${result.stdout}\n${result.stderr}`);
  return line;
}

const ok = "import { test, expect } from 'vitest';\ntest('a', () => expect(1).toBe(1));\n";

test('a failing beforeAll counts as a failure, though its tests only skip', async () => {
  const line = await run({
    'good.test.mjs': ok,
    'setup.test.mjs':
      "import { beforeAll, test } from 'vitest';\nbeforeAll(() => { throw new Error('no database'); });\ntest('b', () => {});\ntest('c', () => {});\n",
  });
  expect(line).toMatch(/^tests: 1 passed, 1 failed, 2 skipped$/);
});

test('an import error and a failing afterAll count; a failing test counts once', async () => {
  const line = await run({
    'good.test.mjs': ok,
    'import.test.mjs':
      "import './missing-module.mjs';\nimport { test } from 'vitest';\ntest('d', () => {});\n",
    'teardown.test.mjs':
      "import { afterAll, test } from 'vitest';\nafterAll(() => { throw new Error('left running'); });\ntest('e', () => {});\n",
    'red.test.mjs': "import { test, expect } from 'vitest';\ntest('f', () => expect(1).toBe(2));\n",
  });
  expect(line).toMatch(/^tests: 2 passed, 3 failed, \d+ skipped$/);
});

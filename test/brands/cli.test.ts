// `brands create` and `brands delete`, the real bin against the simulator: a command killed
// after its POST (answered, or its answer lost) and run again with the same arguments
// resumes the same creation; failure groups, the duplicate answer, bad usage, and a delete
// that keeps the folder. The simulator's clock is manual: a brand analyses until the test
// moves time on.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSimulator, type Simulator } from '../../simulator/index.ts';
import { openStore } from '../../main/engine/store/index.ts';
import { BIN, runCli, type CliRun } from '../support/run-cli.ts';
import { until } from './harness.ts';

const KEY = `sk-brands-${randomBytes(10).toString('hex')}`;
const POST = 'POST /v1/brands';
let sim: Simulator;
let dir: string;

function env(): Record<string, string> {
  return {
    HOME: dir,
    BRAND_SYNC_BASE_URL: sim.baseUrl,
    BRAND_SYNC_API_KEY: KEY,
    BRAND_SYNC_DATA_DIR: path.join(dir, 'data'),
    BRAND_SYNC_ROOT: path.join(dir, 'root'),
  };
}

/** Runs the bin while the simulated clock moves on (analyses finish). */
async function run(args: string[]): Promise<CliRun> {
  let done = false;
  const result = runCli(args, env(), KEY).finally(() => (done = true));
  while (!done) {
    await sim.control.advance(10_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return result;
}

const lines = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');
beforeAll(async () => {
  sim = await startSimulator({ apiKeys: [KEY], manualClock: true, rateLimit: false });
  dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'brand-sync-brands-cli-'));
});
afterAll(async () => {
  await sim?.close();
  if (dir) await fs.promises.rm(dir, { recursive: true, force: true });
});

/** Starts the bin and SIGKILLs it once `ready` holds (the creation got that far). */
async function killWhen(args: string[], ready: () => boolean): Promise<void> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, ...env() },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    await until(ready, 20_000);
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

describe('a killed `brands create` run again with the same arguments', () => {
  test('killed while following the brand it created: the rerun polls that brand, and creates none', async () => {
    const args = ['brands', 'create', '--website', 'https://killed-waiting.example.com', '--wait'];
    await killWhen(args, () => {
      const created = sim.control.log({ route: POST }).find((e) => e.created);
      if (!created?.created) return false;
      // Its Brand ID was remembered before the job went on to follow it (wait=true polls).
      const id = created.created.id;
      // (the first look, then the held wait=true request)
      return (
        sim.control.log({ route: 'GET /v1/brands/{id}' }).filter((e) => e.path.endsWith(id))
          .length >= 2
      );
    });
    const first = sim.control.log({ route: POST });
    expect(first).toHaveLength(1);
    const id = first[0]?.created?.id;
    const rerun = await run(args);
    expect(rerun.code).toBe(0);
    expect(rerun.stderr).toMatch(/^Resuming the creation asked for earlier/m);
    expect(rerun.stdout).toMatch(new RegExp(`^Brand ${id} is ready`));
    expect(sim.control.log({ route: POST })).toHaveLength(1);
  });

  test('killed while the answers to its POST were lost: the rerun sends the same key and body; one brand', async () => {
    sim.control.clearLog();
    const website = 'https://killed-lost.example.com';
    sim.control.injectFault(POST, 'reset-after', 50);
    await killWhen(['brands', 'create', '--website', website], () =>
      sim.control.log({ route: POST }).some((e) => e.created !== null),
    );
    sim.control.clearFaults();
    const lost = sim.control.log({ route: POST });
    const key = lost[0]?.idempotencyKey;
    const id = lost.find((e) => e.created)?.created?.id;
    expect(lost.every((e) => e.outcome === 'reset-after' && e.idempotencyKey === key)).toBe(true);
    const rerun = await run(['brands', 'create', '--website', website, '--json']);
    expect(rerun.code).toBe(0);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ id, idempotencyKey: key, resumed: true });
    const all = sim.control.log({ route: POST });
    expect(all.every((e) => e.idempotencyKey === key)).toBe(true);
    expect(all.at(-1)?.outcome).toBe('replayed');
    expect(all.filter((e) => e.created !== null)).toHaveLength(1);
  });

  test('after the creation finished, the same arguments are a new creation (here refused as a duplicate)', async () => {
    const again = await run([
      'brands',
      'create',
      '--website',
      'https://killed-waiting.example.com',
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).not.toMatch(/Resuming/);
    expect(again.stderr).toMatch(/DUPLICATE_BRAND/);
  });
});

describe('brands create', () => {
  test('--wait on a source to fix: exit 1, the code and "fix the source" advice', async () => {
    const result = await run([
      'brands',
      'create',
      '--website',
      'https://fix-me.example.com',
      '--instagram',
      'https://instagram.com/fail-INSTAGRAM_PRIVATE_PROFILE',
      '--wait',
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/ended failed/);
    expect(lines(result.stderr).at(-1)).toMatch(
      /^brand-sync: INSTAGRAM_PRIVATE_PROFILE: .*\. Fix the source, then create the brand again/,
    );
  });

  test('--wait on a failure of the service: "try again later unchanged" advice, and --json has the failure', async () => {
    const result = await run([
      'brands',
      'create',
      '--website',
      'https://fail-BRAND_GUIDE_BUILD_FAILED.example.com',
      '--wait',
      '--json',
    ]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      status: 'failed',
      failure: { code: 'BRAND_GUIDE_BUILD_FAILED' },
    });
    expect(result.stderr).toMatch(
      /BRAND_GUIDE_BUILD_FAILED: .*create the brand again later with the same sources/,
    );
  });

  test('a duplicate website: one line with the matching brand and the --allow-duplicate way out', async () => {
    const { id } = await sim.control.seedBrand({
      name: 'Original',
      website: 'https://original.example.com',
    });
    const refused = await run([
      'brands',
      'create',
      '--website',
      'https://original.example.com/about',
    ]);
    expect(refused.code).toBe(1);
    expect(lines(refused.stderr)).toEqual([
      `brand-sync: DUPLICATE_BRAND: a brand with this website already exists: ${id} (Original). Use it, or pass --allow-duplicate to create another anyway.`,
    ]);
    const json = await run([
      'brands',
      'create',
      '--website',
      'https://original.example.com',
      '--json',
    ]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: { code: 'DUPLICATE_BRAND', data: { brands: [expect.objectContaining({ id })] } },
    });
  });

  test.each([
    [
      'instructions too long',
      ['--instructions', 'x'.repeat(4001)],
      /Instructions may be at most 4000 characters, got 4001/,
    ],
    ['an http PDF', ['--pdf', 'http://cdn.example.com/guide.pdf'], /A PDF needs an https URL/],
    [
      'a workspace that is no ID',
      ['--workspace', 'studio'],
      /A workspace ID is a UUID, got "studio"/,
    ],
    [
      'an Instagram profile without scheme',
      ['--instagram', 'instagram.com/acme'],
      /--instagram needs an http\(s\) URL/,
    ],
  ])('bad usage, %s: exit 2, one line, nothing sent', async (_label, extra, message) => {
    const before = sim.control.log({ route: POST }).length;
    const result = await runCli(
      ['brands', 'create', '--website', 'https://usage.example.com', ...extra],
      env(),
      KEY,
    );
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(sim.control.log({ route: POST }).length).toBe(before);
  });
});

describe('brands delete', () => {
  test('the brand goes on the service; its folder stays and the user is told; the store marks it deleted', async () => {
    const { id } = await sim.control.seedBrand({ name: 'Kept Folder' });
    const folder = path.join(dir, 'root', 'Kept Folder');
    await fs.promises.mkdir(folder, { recursive: true });
    await fs.promises.writeFile(path.join(folder, 'moodboard.png'), 'not really a png');
    const store = openStore({ dataDir: path.join(dir, 'data') });
    try {
      store.brands.upsertFromService({ id, status: 'ready', name: 'Kept Folder' });
      store.brands.setFolder(id, 'Kept Folder');
    } finally {
      store.close();
    }
    const result = await runCli(['brands', 'delete', id], env(), KEY);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual([
      `Deleted brand ${id} (Kept Folder) on the service.`,
      'Its folder "Kept Folder" stays on disk, untouched; Brand Sync no longer syncs it.',
    ]);
    expect(fs.existsSync(path.join(folder, 'moodboard.png'))).toBe(true);
    expect(sim.control.brands().some((b) => b.id === id)).toBe(false);
    const after = openStore({ dataDir: path.join(dir, 'data') });
    try {
      expect(after.brands.get(id)?.deletedRemotely).toBe(true);
    } finally {
      after.close();
    }
  });
});

test('failure advice is said in a designer’s words: no protocol terms', async () => {
  const { brandFailureAdvice } = await import('../../main/engine/brands/brand-failure.ts');
  for (const code of ['INSTAGRAM_PRIVATE_PROFILE', 'SCRAPE_FAILED', 'SOMETHING_NEW', null]) {
    const { advice } = brandFailureAdvice({ code, message: null });
    expect(advice).not.toMatch(/idempotenc|request|HTTP|\bkey\b|retry/i);
    expect(advice.length).toBeGreaterThan(20);
  }
});

// The export sync killed with SIGKILL at random moments of the download, the extraction and
// the swap, each round against a new Skill version on the simulator: after the restart,
// `Brand Skill/` is always one complete copy (the old one or the new one, never a mix), and
// the next run brings the new one, resuming a cut download where it stopped.
import { prng, runChild } from '../support/crash-child.ts';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../../simulator/index.ts';
import { createApiClient, type ApiClient } from '../../main/engine/api/index.ts';
import { readInstalledSkill } from '../../main/engine/export-parts/skill-install.ts';
import type { SwapStep } from '../../main/engine/export-parts/skill-install.ts';
import { skillLayout } from '../../main/engine/export-parts/skill-layout.ts';
import { listSkillVersions } from '../../main/engine/export-parts/skill-versions.ts';
import { png } from '../api/helpers.ts';
import { skillTreeFiles } from '../export-parts/skill-fixtures.ts';
import type { ChildConfig, KillPoint } from './fixtures/export-sync-child.ts';
import { leftoverDownloads } from './harness.ts';
import { zipFiles } from './zip-files.ts';

const CHILD = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures',
  'export-sync-child.ts',
);
const KEY = 'sk-crash-0123456789abcdef';
const ROUNDS = 8;
const SWAP_STEPS: SwapStep[] = [
  'journal-written',
  'previous-moved',
  'installed',
  'journal-cleared',
  'pruned',
];

let sim: Simulator;
let client: ApiClient;
let dir: string;

beforeAll(async () => {
  // Real time, fast: the child processes run on their own clocks.
  sim = await startSimulator({ apiKeys: [KEY], rateLimit: false, speed: 1000 });
  client = createApiClient({
    baseUrl: sim.baseUrl,
    credentials: { kind: 'api-key', secret: KEY },
    timeoutMs: 20_000,
  });
  dir = await mkdtemp(path.join(os.tmpdir(), 'export-crash-'));
});

afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

test('SIGKILL during download, extraction or swap: after restart Brand Skill/ is one complete copy', async () => {
  const seed = Number(process.env.CRASH_SEED ?? Date.now());
  const random = prng(seed);
  const pick = (n: number): number => Math.floor(random() * n);
  const root = path.join(dir, 'root');
  const dataDir = path.join(dir, 'data');
  const brandDir = path.join(root, 'Acme');
  const config = (mode: ChildConfig['mode'], killAt: KillPoint | null): ChildConfig => ({
    mode,
    baseUrl: sim.baseUrl,
    key: KEY,
    dataDir,
    root,
    killAt,
  });
  const expected = new Map<string, Record<string, string>>();

  /** A new active Skill with a large logo (a download of many chunks); its expected files. */
  const newSkill = async (brandId: string, n: number): Promise<string> => {
    const logo = path.join(dir, `logo-${n}.png`);
    const size = 1_500_000 + pick(1_500_000);
    await writeFile(logo, Buffer.concat([png(n, 8, 8), randomBytes(size)]));
    await client.uploadLogo(brandId, { path: logo });
    const brand = await client.waitForBrand(brandId, { pollIntervalMs: 20 });
    const skillId = brand.skillId as string;
    const exp = await client.exportAndWait(brandId, { pollIntervalMs: 20 });
    expect(exp.skillId).toBe(skillId);
    const zip = path.join(dir, `${skillId}.zip`);
    await client.downloadToFile(exp.download?.url as string, zip);
    expected.set(skillId, await zipFiles(zip));
    return skillId;
  };
  const installed = async (context: string): Promise<string> => {
    const skill = await readInstalledSkill(brandDir);
    const files = skill && expected.get(skill.skillId);
    expect(files, `${context}: no known Skill in Brand Skill/`).toBeDefined();
    expect(await skillTreeFiles(skillLayout(brandDir).live), context).toEqual(files);
    for (const version of await listSkillVersions(brandDir)) {
      expect(await skillTreeFiles(version.dir), context).toEqual(
        expected.get(version.skillId ?? ''),
      );
    }
    expect(await readdir(skillLayout(brandDir).staging), context).toEqual([]);
    return (skill as { skillId: string }).skillId;
  };

  const brand = await sim.control.seedBrand({ name: 'Acme', status: 'ready' });
  let current = await newSkill(brand.id, 0);
  const first = await runChild(CHILD, config('sync', null));
  expect(first.code, first.output).toBe(0);
  expect(await installed('first run')).toBe(current);
  const fullMs = first.ms;

  const kills: Record<string, number> = { download: 0, extract: 0, swap: 0, timer: 0 };
  for (let round = 1; round <= ROUNDS; round++) {
    const target = await newSkill(brand.id, round);
    const mode = (['download', 'extract', 'swap', 'timer'] as const)[round % 4] as string;
    const killAt: KillPoint | null =
      mode === 'download'
        ? { phase: 'download', fraction: 0.1 + 0.8 * random() }
        : mode === 'extract'
          ? { phase: 'extract', file: 1 + pick(Object.keys(expected.get(target) ?? {}).length) }
          : mode === 'swap'
            ? { phase: 'swap', step: SWAP_STEPS[pick(SWAP_STEPS.length)] as SwapStep }
            : null;
    const run = await runChild(
      CHILD,
      config('sync', killAt),
      mode === 'timer' ? random() * fullMs : undefined,
    );
    const context = `seed ${seed}, round ${round}, ${mode} ${JSON.stringify(killAt)}: ${run.output}`;
    if (run.signal === 'SIGKILL') kills[mode] = (kills[mode] ?? 0) + 1;
    else expect(run.code, context).toBe(0);

    // The restart: recovery only, before any job runs again.
    const restart = await runChild(CHILD, config('restart', null));
    expect(restart.code, `${context} / restart: ${restart.output}`).toBe(0);
    const after = await installed(context);
    expect([current, target], context).toContain(after);
    if (run.signal !== 'SIGKILL') expect(after, context).toBe(target);
    // The journal is written once the new copy is complete: from then on, recovery finishes.
    else if (mode === 'swap') expect(after, context).toBe(target);
    else if (mode !== 'timer') expect(after, context).toBe(current);

    // The next run completes the job the crash interrupted.
    const next = await runChild(CHILD, config('sync', null));
    expect(next.code, `${context} / next: ${next.output}`).toBe(0);
    expect(await installed(context), context).toBe(target);
    expect(await leftoverDownloads(dataDir), context).toEqual([]);
    current = target;
  }

  expect(kills.download).toBeGreaterThan(0);
  expect(kills.extract).toBeGreaterThan(0);
  expect(kills.swap).toBeGreaterThan(0);
  // A download killed midway was resumed from its partial file (a 206 answer).
  const resumed = sim.control
    .log({ method: 'GET' })
    .filter((e) => e.path.startsWith('/files/') && e.status === 206);
  expect(resumed.length).toBeGreaterThan(0);
}, 120_000);

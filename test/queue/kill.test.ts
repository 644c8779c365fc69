// The kill test: a child process works through 500 upload jobs against the simulator and
// is killed with SIGKILL at 20 random moments, then restarted until it finishes. Every job
// must end done exactly once as far as the service can tell, none lost or stuck, and the
// database must pass PRAGMA integrity_check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { startSimulator } from '../../simulator/index.ts';
import type { Simulator } from '../../simulator/index.ts';
import { solidPng } from '../../simulator/png.ts';
import { openStore } from '../../main/engine/store/index.ts';
import { makeTempDir } from '../store/temp-dir.ts';
import { prng } from '../support/crash-child.ts';

const JOBS = 500;
const KILLS = 20;
const worker = fileURLToPath(new URL('./fixtures/upload-worker.ts', import.meta.url));

let sim: Simulator;
let temp: ReturnType<typeof makeTempDir>;
const key = `sk-test-${randomBytes(12).toString('hex')}`;

beforeAll(async () => {
  sim = await startSimulator({ apiKeys: [key], rateLimit: false });
  temp = makeTempDir();
});
afterAll(async () => {
  await sim.close();
  temp.cleanup();
});

interface Child {
  process: ChildProcess;
  done: number;
  onLine: (fn: (line: string) => void) => void;
  exit: Promise<number | null>;
  stderr: string[];
}

function startWorker(args: string[]): Child {
  const child = spawn(process.execPath, [worker, ...args], {
    env: { ...process.env, BRAND_SYNC_API_KEY: key },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const listeners: ((line: string) => void)[] = [];
  const handle: Child = {
    process: child,
    done: 0,
    onLine: (fn) => listeners.push(fn),
    exit: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
    stderr: [],
  };
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line === 'done') handle.done++;
    for (const fn of listeners) fn(line);
  });
  createInterface({ input: child.stderr! }).on('line', (line) => handle.stderr.push(line));
  return handle;
}

describe('kill test', () => {
  it(`${JOBS} uploads survive ${KILLS} SIGKILLs: each done once, none lost or stuck`, async () => {
    const seed = Date.now() >>> 0;
    const random = prng(seed);
    const context = `(replay with seed ${seed})`;
    const brandId = (await sim.control.seedBrand({ status: 'ready' })).id;
    const dataDir = join(temp.dir, 'data');
    const filesDir = join(temp.dir, 'files');
    mkdirSync(filesDir, { recursive: true });
    const shaOf: string[] = [];
    for (let i = 0; i < JOBS; i++) {
      const png = solidPng(1 + (i % 7), 1 + (Math.floor(i / 7) % 5), [i & 255, (i >> 8) & 255, 77]);
      writeFileSync(join(filesDir, `${i}.png`), png);
      shaOf.push(createHash('sha256').update(png).digest('hex'));
    }
    expect(new Set(shaOf).size, 'distinct bytes per job').toBe(JOBS);
    const args = [dataDir, sim.baseUrl, brandId, filesDir, String(JOBS)];

    let killedMidWork = 0;
    for (let k = 0; k < KILLS; k++) {
      const child = startWorker(args);
      // Kill after a random number of completions (so the kill lands mid-work) plus a random delay.
      const after = 1 + Math.floor(random() * 15);
      const extraMs = Math.floor(random() * 8);
      await new Promise<void>((resolve) => {
        child.onLine(() => {
          if (child.done >= after) resolve();
        });
        void child.exit.then(() => resolve());
      });
      await new Promise((resolve) => setTimeout(resolve, extraMs));
      if (child.process.exitCode === null) {
        child.process.kill('SIGKILL');
        killedMidWork++;
      }
      const code = await child.exit;
      expect(child.stderr, `kill ${k} ${context}`).toEqual([]);
      expect([null, 0], `kill ${k} exit ${code} ${context}`).toContain(code);
    }
    expect(killedMidWork, context).toBe(KILLS);

    const last = startWorker(args);
    const timeout = setTimeout(() => last.process.kill('SIGKILL'), 60_000);
    const code = await last.exit;
    clearTimeout(timeout);
    expect(last.stderr, context).toEqual([]);
    expect(code, `final run exit ${context}`).toBe(0);

    // What the service saw: each image stored once; re-sends (a kill after the send) visible as received > 1.
    const stored = new Map(sim.control.uploads(brandId).map((u) => [u.sha256, u]));
    expect(stored.size, context).toBe(JOBS);

    const store = openStore({ dataDir });
    try {
      expect(store.integrityCheck()).toEqual(['ok']);
      const counts = store.jobs.countsByState(['test.upload']);
      expect(counts, context).toEqual({
        queued: 0,
        running: 0,
        'retry-wait': 0,
        done: JOBS,
        failed: 0,
        cancelled: 0,
      });
      const jobs = store.jobs.list({ kind: 'test.upload', limit: 1000 });
      expect(jobs).toHaveLength(JOBS);
      let resent = 0;
      for (const job of jobs) {
        const index = (job.payload as { index: number }).index;
        const upload = stored.get(shaOf[index]!);
        const sends = job.facts.sends as number;
        expect(upload, `job ${index} ${context}`).toBeDefined();
        // The job's result is the service's one image for those bytes.
        expect((job.result as { imageId: string }).imageId, `job ${index} ${context}`).toBe(
          upload!.id,
        );
        // Every send was remembered before it left: the service never saw more than that.
        expect(
          upload!.received,
          `job ${index}: received vs remembered sends ${context}`,
        ).toBeLessThanOrEqual(sends);
        if (sends === 1) expect(upload!.received, `job ${index} ${context}`).toBe(1);
        resent += upload!.received - 1;
      }
      // Only jobs in flight at a kill can be sent again (4 at a time).
      expect(resent, context).toBeLessThanOrEqual(KILLS * 4);
      expect(store.jobs.owners(), 'no owner left behind').toEqual([]);
    } finally {
      store.close();
    }
  }, 120_000);
});

// Pause and resume are the engine's: `brand-sync pause` in another process is followed by
// the running engine within seconds, said in the activity log, kept across a restart, and
// undone by `resume`. Nothing starts while paused.
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { AppRuntime } from '../../main/engine/app/app-runtime.ts';
import { runCli } from '../support/run-cli.ts';
import { KEY, memoryKeyStore, startBridge, until, type Bridge } from './harness.ts';

let b: Bridge;
beforeAll(async () => {
  b = await startBridge();
});
afterAll(async () => {
  await b?.close();
});

test('brand-sync pause and resume: a running engine follows, the log says who, a restart stays paused', async () => {
  const env = { HOME: b.dir, BRAND_SYNC_DATA_DIR: path.join(b.dir, 'data') };
  const paused = await runCli(['pause'], env);
  expect(paused.code).toBe(0);
  expect(paused.stdout).toContain('Paused');
  await until(async () => (await b.ok('status')).queue.userPaused, 'the running engine to pause');
  // Jobs running at the pause still finish, and may log after it: the entry is found by code.
  const log: { code: string }[] = (await b.ok('activity', {})).log;
  expect(log.find((entry) => entry.code === 'PAUSED')).toMatchObject({
    code: 'PAUSED',
    message: expect.stringContaining('`brand-sync pause`'),
  });
  expect((await runCli(['pause'], env)).stdout).toContain('Already paused');

  // Running work finishes; nothing new starts while paused: a reconcile only queues.
  const running = async () =>
    (await b.ok('activity', {})).active.filter((j: { state: string }) => j.state === 'running');
  await until(async () => (await running()).length === 0, 'running jobs to finish');
  await b.ok('syncNow');
  const queued = (await b.ok('activity', {})).active.filter(
    (j: { state: string }) => j.state === 'queued',
  );
  expect(queued.length).toBeGreaterThan(0);
  expect(await running()).toEqual([]);

  // A restart stays paused.
  await b.app.close();
  const again = await AppRuntime.start({
    dataDir: path.join(b.dir, 'data'),
    root: b.root,
    baseUrl: b.sim.baseUrl,
    keyStore: memoryKeyStore(),
    credentials: { kind: 'api-key', secret: KEY, source: 'environment' },
    host: { kind: 'browser' },
  });
  try {
    expect(again.engine?.queue.status().userPaused).toBe(true);
    const resumed = await runCli(['resume'], env);
    expect(resumed.stdout).toContain('Resumed');
    await until(() => again.engine?.queue.status().userPaused === false, 'the engine to resume');
  } finally {
    await again.close();
  }
});

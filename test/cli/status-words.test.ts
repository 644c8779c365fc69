// `status` in words a designer reads: a failed brand with its code and what to do (no
// "idempotency key"), jobs named for what they do (no "export.sync export.sync:6d01…"),
// and a command's own refusal never shown later as the engine's last error.
import path from 'node:path';
import { expect, test } from 'vitest';
import { openStore } from '../../main/engine/store/index.ts';
import { useCliFixture } from '../support/cli-fixture.ts';
import { runCli } from '../support/run-cli.ts';

const fx = useCliFixture('sk-status-words-0123456789');
const EXPORT = 'POST /v1/brands/{id}/exports';

test('a failed brand shows its failure code and the advice, in plain words', async () => {
  await fx.sim.control.seedBrand({
    name: 'Broken',
    status: 'failed',
    failureCode: 'SCRAPE_FAILED',
  });
  expect((await runCli(['sync', '--once'], fx.env(), fx.key)).code).toBe(0);
  const status = await runCli(['status'], fx.env(), fx.key);
  expect(status.stdout).toMatch(/Broken failed: SCRAPE_FAILED\b.*create the brand again later/);
  expect(status.stdout).not.toMatch(/idempotency/i);
});

test('a job waiting to retry is named in words, not by its kind and key', async () => {
  const { id } = await fx.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
  expect((await runCli(['sync', '--once'], fx.env(), fx.key)).code).toBe(0);
  // A Brand Skill download the service answered with a 503, as `run` leaves it.
  const store = openStore({ dataDir: path.join(fx.dir, 'data') });
  try {
    const now = store.now();
    const key = `export.sync:${id}`;
    store.jobs.enqueue({ kind: 'export.sync', key, brandId: id, payload: { brandId: id } }, now);
    const job = store.jobs.claimNext(['export.sync'], 'test-owner', now, now + 60_000);
    store.jobs.retryLater(
      job!.id,
      'test-owner',
      {
        nextRunAt: now + 3_600_000,
        error: {
          code: 'SERVICE_UNAVAILABLE',
          message: 'The service is busy.',
          kind: 'server',
          retryable: true,
        },
        refund: false,
        networkFailure: false,
      },
      now,
    );
  } finally {
    store.close();
  }
  const status = await runCli(['status'], fx.env(), fx.key);
  expect(status.stdout).toMatch(/Waiting to retry:\n {2}Brand Skill of Acme: SERVICE_UNAVAILABLE/);
  expect(status.stdout).not.toMatch(/export\.sync/);
});

test("a command the user ran and that was refused is not the engine's last error later", async () => {
  await fx.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
  expect((await runCli(['sync', '--once'], fx.env(), fx.key)).code).toBe(0);
  fx.sim.control.failNext(EXPORT, { status: 404, code: 'BRAND_NOT_FOUND', count: 50 });
  const refused = await runCli(['exports', 'sync', 'Acme'], fx.env(), fx.key);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/BRAND_NOT_FOUND/);
  const status = await runCli(['status'], fx.env(), fx.key);
  expect(status.stdout).not.toMatch(/BRAND_NOT_FOUND/);
});

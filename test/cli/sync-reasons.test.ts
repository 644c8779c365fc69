// `sync --once` ends with its reasons: a Brand Skill download that the service's own origin
// cuts off again and again fails that brand's delivery after bounded tries; the pass ends
// (exit 1) with a line naming the brand and the reason, the other brand's Skill is
// installed, and nothing says "interrupted" or "unreachable": nobody interrupted it.
import path from 'node:path';
import { expect, test } from 'vitest';
import { readInstalledSkill } from '../../main/engine/export-parts/skill-install.ts';
import { createApiClient, RateGate } from '../../main/engine/api/index.ts';
import { useCliFixture } from '../support/cli-fixture.ts';
import { runCli, startCli } from '../support/run-cli.ts';
import { png } from '../api/helpers.ts';
import { utimes } from 'node:fs/promises';

const KEY = 'sk-sync-reasons-0123456789abcdef';
const f = useCliFixture(KEY);

test('a Brand Skill download cut off on every try fails that brand with its reason; the others finish', async () => {
  const trunc = await f.sim.control.seedBrand({ name: 'Trunc Co', status: 'ready' });
  const fine = await f.sim.control.seedBrand({ name: 'Fine Co', status: 'ready' });
  const client = createApiClient({
    baseUrl: f.sim.baseUrl,
    credentials: { kind: 'api-key', secret: KEY },
    rateGate: new RateGate(),
  });
  const exp = await client.exportAndWait(trunc.id);
  // Each answer promises the whole ZIP, 1000 bytes arrive, the connection drops; no Range.
  f.sim.control.cutDownloads(exp.download?.url as string, { ignoreRange: true });

  const run = await runCli(['sync', '--once'], f.env(), KEY);

  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(
    /^Failed: Brand Skill of Trunc Co: the download from 127\.0\.0\.1:\d+ was cut off \d+ times; tried again at the next sync \(DOWNLOAD_CUT_OFF\)$/m,
  );
  expect(run.stdout).toMatch(/^Sync finished with 1 failure in /m);
  expect(run.stdout).not.toMatch(/interrupted|unreachable|Stopped/);
  expect((await readInstalledSkill(path.join(f.dir, 'root', 'Fine Co')))?.skillId).toBe(
    fine.skillId,
  );
  expect(await readInstalledSkill(path.join(f.dir, 'root', 'Trunc Co'))).toBeNull();
  // Bounded: one try brought bytes, then a few without progress; no job retried it after.
  const tries = f.sim.control
    .log({ method: 'GET' })
    .filter((e) => e.path === new URL(exp.download?.url as string).pathname);
  expect(tries.length).toBeGreaterThan(1);
  expect(tries.length).toBeLessThanOrEqual(10);

  // The next sync tries again, and with the host whole again, installs it.
  f.sim.control.clearFaults();
  const again = await runCli(['sync', '--once'], f.env(), KEY);
  expect(again.code).toBe(0);
  expect((await readInstalledSkill(path.join(f.dir, 'root', 'Trunc Co')))?.skillId).toBe(
    trunc.skillId,
  );
});

test('a file held because the service asked to wait is said to wait for the service, not to be still written', async () => {
  await f.sim.control.seedBrand({ name: 'Acme', status: 'ready', withExport: true });
  expect((await runCli(['sync', '--once'], f.env(), KEY)).code).toBe(0);
  await f.put('Acme/new.png', png(7));
  const old = new Date(Date.now() - 10_000);
  await utimes(path.join(f.dir, 'root', 'Acme', 'new.png'), old, old);
  f.sim.control.setFaults('POST /v1/images/uploads/file:429=1,retry-after=600');

  const child = startCli(['sync', '--once'], f.env());
  await expect.poll(() => child.stderr, { timeout: 20_000 }).toMatch(/Paused by the service/);
  // The person stops it (Ctrl-C): that, and only that, is an interruption.
  child.kill('SIGINT');
  expect(await child.exited).toBe(1);
  expect(child.stdout).toMatch(/^Stopped: ABORTED: the sync was interrupted$/m);
  expect(child.stdout).toMatch(
    /^1 file waits because the service asked to wait until \d\d:\d\d:\d\d: uploaded after that\.$/m,
  );
  expect(child.stdout).not.toMatch(/still being written/);
});

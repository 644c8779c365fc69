// `library open BRAND ITEM`: the cached file's path, fetched into the one media cache (the
// window's) when online; offline, the same path from the cache, and a clear answer (exit 1)
// for an item never fetched.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { useCliFixture } from '../support/cli-fixture.ts';
import { runCli } from '../support/run-cli.ts';

const f = useCliFixture('sk-library-open-0123456789');

test('open fetches into the media cache once, then answers offline; never fetched is said plainly', async () => {
  const { id } = await f.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
  const [first, second] = f.sim.control.seedLibrary(id, {
    items: [
      { type: 'image', description: 'Poster' },
      { type: 'image', description: 'Banner' },
    ],
  }).ids as [string, string];
  expect((await runCli(['sync', '--once'], f.env(), f.key)).code).toBe(0);

  const online = await runCli(['library', 'open', 'Acme', first], f.env(), f.key);
  expect(online.stderr).toBe('');
  expect(online.code).toBe(0);
  const file = online.stdout.trim();
  expect(file.startsWith(path.join(f.dir, 'data', 'media-cache') + path.sep)).toBe(true);
  expect(existsSync(file)).toBe(true);

  await f.sim.close();
  const offline = f.env({ BRAND_SYNC_API_KEY: undefined, BRAND_SYNC_BASE_URL: undefined });
  const again = await runCli(['library', 'open', 'Acme', first], offline, f.key);
  expect(again).toMatchObject({ code: 0, stdout: `${file}\n` });

  const never = await runCli(['library', 'open', 'Acme', second], offline, f.key);
  expect(never.code).toBe(1);
  expect(never.stderr).toMatch(/NOT_CACHED: Library item .* was never fetched to this computer/);

  const unknown = await runCli(['library', 'open', 'Acme', 'nope'], offline, f.key);
  expect(unknown.code).toBe(2);
  // The fixture closes its simulator after each test: hand it a live one again.
  const { startSimulator } = await import('../../simulator/index.ts');
  f.sim = await startSimulator({ apiKeys: [f.key] });
});

// What a scripter trips on, made right: required options marked in --help, `brands delete`
// confirming on a terminal and taking --yes, `skills show` saying the ZIP is ready (not
// "url"), the simulator's port default said once, and the same workspace IDs everywhere.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect, test } from 'vitest';
import { useCliFixture } from '../support/cli-fixture.ts';
import { BIN, runCli } from '../support/run-cli.ts';

const KEY = 'sk-papercuts-0123456789';
const f = useCliFixture(KEY);

test('images edit --help marks --prompt and --brand as required', async () => {
  const help = await runCli(['images', 'edit', '--help'], f.env(), KEY);
  expect(help.stdout).toMatch(/--prompt <text>\s+.*\(required\)/);
  expect(help.stdout).toMatch(/--brand <brand>\s+.*\(required\)/);
});

test('simulator --help says its port default once', async () => {
  const help = await runCli(['simulator', '--help'], f.env(), KEY);
  const line = help.stdout.split('\n').find((l) => l.includes('--port')) ?? '';
  expect(line.match(/default/g)).toHaveLength(1);
});

test('credits --workspace and brands create --workspace take the same IDs, and refuse the same', async () => {
  const team = f.sim.control.addWorkspace({ name: 'Studio', balance: 9 });
  expect((await runCli(['credits', '--workspace', team.id], f.env(), KEY)).code).toBe(0);
  const badCredits = await runCli(['credits', '--workspace', 'studio'], f.env(), KEY);
  const badCreate = await runCli(
    ['brands', 'create', '--website', 'https://studio.example.com', '--workspace', 'studio'],
    f.env(),
    KEY,
  );
  expect(badCredits.code).toBe(badCreate.code);
  for (const run of [badCredits, badCreate]) {
    expect(run.stderr).toMatch(
      /A workspace ID is a UUID, got "studio" \(leave it out for your personal workspace\)/,
    );
  }
});

test.skipIf(!existsSync('/usr/bin/script'))(
  'brands delete asks on a terminal (no: nothing deleted), and --yes deletes without asking',
  async () => {
    const brand = await f.sim.control.seedBrand({ name: 'Keep Me', status: 'ready' });
    const env = { ...f.env(), PATH: process.env.PATH } as Record<string, string>;
    // A real terminal (script(1) gives the bin a pty), answering "n".
    const onTerminal = spawnSync(
      'script',
      [
        '-qec',
        `printf 'n\\n' | true; '${process.execPath}' '${BIN}' brands delete ${brand.id}`,
        '/dev/null',
      ],
      { env, input: 'n\n', encoding: 'utf8', timeout: 30_000 },
    );
    expect(onTerminal.stdout).toMatch(/Delete brand .* \[y\/N\]/);
    expect(onTerminal.stdout).toMatch(/CANCELLED: nothing was deleted/);
    expect(f.sim.control.brands().some((b) => b.id === brand.id)).toBe(true);

    const yes = await runCli(['brands', 'delete', brand.id, '--yes'], f.env(), KEY);
    expect(yes.code).toBe(0);
    expect(yes.stdout).toMatch(/Deleted brand/);
    expect(f.sim.control.brands().some((b) => b.id === brand.id)).toBe(false);
  },
);

test('skills show says the ZIP is ready, not "url"', async () => {
  const { createApiClient } = await import('../../main/engine/api/index.ts');
  const client = createApiClient({
    baseUrl: f.sim.baseUrl,
    credentials: { kind: 'api-key', secret: KEY },
  });
  const job = await client.createBrandSkill({
    sources: [{ kind: 'website', url: 'https://beta.example.com' }],
  });
  for (let i = 0; i < 100 && (await client.getBrandSkill(job.id)).status !== 'completed'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const shown = await runCli(['skills', 'show', job.id], f.env(), KEY);
  expect(shown.code).toBe(0);
  expect(shown.stdout).toMatch(/^ZIP:\s+ready/m);
  expect(shown.stdout).not.toMatch(/^ZIP:\s+url$/m);
});

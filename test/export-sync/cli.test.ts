// `exports sync BRAND` and `skills add|show|delete ID` as the real bin against the
// simulator: what they print, their --json documents and their exit codes.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { useCliFixture } from '../support/cli-fixture.ts';
import { runCli } from '../support/run-cli.ts';

const KEY = 'sk-export-cli-0123456789abcdef';
const f = useCliFixture(KEY);
const env = f.env;

test('exports sync installs the Skill (by ID), then finds it up to date (by folder name)', async () => {
  const brand = await f.sim.control.seedBrand({
    name: 'Acme Coffee',
    status: 'ready',
    withExport: true,
  });
  const first = await runCli(['exports', 'sync', brand.id, '--json'], env(), KEY);
  expect(first.stderr).toBe('');
  expect(first.code).toBe(0);
  const doc = JSON.parse(first.stdout);
  expect(doc).toMatchObject({
    outcome: 'installed',
    brandId: brand.id,
    brandName: 'Acme Coffee',
    skillId: brand.skillId,
    path: path.join(f.dir, 'root', 'Acme Coffee', 'Brand Skill'),
  });
  expect(await readdir(doc.path)).toContain('SKILL.md');

  const again = await runCli(['exports', 'sync', 'acme coffee'], env(), KEY);
  expect(again.code).toBe(0);
  expect(again.stdout).toMatch(/up to date/);
  expect(again.stdout).toMatch(/Outcome:\s+unchanged/);
});

test('exports sync exits 1 with the reason when the export fails', async () => {
  const brand = await f.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
  f.sim.control.nextExportOutcome({ retryable: false });
  const run = await runCli(['exports', 'sync', brand.id], env(), KEY);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^brand-sync: EXPORT_FAILED: The service cannot export brand "Acme"/m);
});

test('exports sync of a brand with nothing to export yet says so and exits 0', async () => {
  f.sim.control.setDurations({ brandAnalysisMs: 10 ** 12 }); // still analyzing when asked
  const brand = await f.sim.control.seedBrand({ name: 'Later', status: 'analyzing' });
  const run = await runCli(['exports', 'sync', brand.id, '--json'], env(), KEY);
  expect(run.code).toBe(0);
  expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'unavailable', path: null });
  expect(JSON.parse(run.stdout).message).toMatch(/no exportable Skill yet/);
});

test('exports sync of something that is no brand is bad usage (exit 2)', async () => {
  const run = await runCli(['exports', 'sync', 'No Such Folder'], env(), KEY);
  expect(run.code).toBe(2);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
});

test('skills add waits and stores the Skill; show tells both sides; delete keeps the folder', async () => {
  const res = await fetch(`${f.sim.baseUrl}/brand-skills`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify({
      sources: [{ kind: 'website', url: 'https://beta.example' }],
      brandName: 'Beta Co',
    }),
  });
  const beta = ((await res.json()) as { data: { id: string; brandId: string } }).data;

  const add = await runCli(['skills', 'add', beta.id, '--json'], env(), KEY);
  expect(add.stderr).toBe('');
  expect(add.code).toBe(0);
  expect(JSON.parse(add.stdout)).toMatchObject({
    outcome: 'installed',
    id: beta.id,
    brandId: beta.brandId,
    brandName: 'Beta Co',
    path: path.join(f.dir, 'root', 'Beta Co', 'Brand Skill'),
  });

  const show = await runCli(['skills', 'show', beta.id, '--json'], env(), KEY);
  expect(show.code).toBe(0);
  expect(JSON.parse(show.stdout)).toMatchObject({
    id: beta.id,
    status: 'completed',
    zip: 'url',
    tracked: { folderName: 'Beta Co', status: 'completed' },
  });

  const del = await runCli(['skills', 'delete', beta.id], env(), KEY);
  expect(del.code).toBe(0);
  expect(del.stdout).toMatch(/Deleted beta Brand Skill .* on the service/);
  expect(del.stdout).toMatch(/"Beta Co" was kept/);
  expect(await readdir(path.join(f.dir, 'root', 'Beta Co', 'Brand Skill'))).toContain('SKILL.md');

  const gone = await runCli(['skills', 'show', beta.id], env(), KEY);
  expect(gone.code).toBe(1);
  expect(gone.stderr).toMatch(/BRAND_SKILL_NOT_FOUND|not found/i);
});

test('skills add of a malformed ID is bad usage (exit 2); --no-wait only tracks', async () => {
  const bad = await runCli(['skills', 'add', 'nope'], env(), KEY);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/not a beta Brand Skill ID/);

  const id = '0b8e7c1e-0000-4000-8000-00000000000a';
  const track = await runCli(['skills', 'add', id, '--no-wait'], env(), KEY);
  expect(track.code).toBe(0);
  expect(track.stdout).toMatch(/Tracking beta Brand Skill/);
});

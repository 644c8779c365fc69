// A service that hands out a hostile or damaged archive: the export sync fails with the
// archive's own clear error, the previous `Brand Skill/` stays byte-identical, nothing lands
// outside the folder, and the rejected download is not kept.
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { readInstalledSkill } from '../../main/engine/export-parts/skill-install.ts';
import { png } from '../api/helpers.ts';
import { buildZip, MODE_SYMLINK } from '../export-parts/raw-zip.ts';
import { snapshotTree } from '../export-parts/skill-fixtures.ts';
import { leftoverDownloads, startHarness, type Harness } from './harness.ts';
import { startHostileProxy, type HostileProxy } from './hostile-proxy.ts';

let h: Harness;
let proxy: HostileProxy;

beforeEach(async () => {
  h = await startHarness();
  proxy = await startHostileProxy(h.sim);
});

afterEach(async () => {
  await h.close();
  await proxy.close();
});

const good = [
  { name: 'SKILL.md', data: '# Skill\n' },
  { name: 'assets/logo.txt', data: 'logo' },
];

const cases = [
  {
    label: 'zip-slip',
    zip: () => buildZip([...good, { name: 'assets/../../evil.txt', data: 'x' }]),
    code: 'ZIP_SLIP',
    entry: 'assets/../../evil.txt',
  },
  {
    label: 'a symlink',
    zip: () =>
      buildZip([...good, { name: 'link', data: '/etc/passwd', method: 0, unixMode: MODE_SYMLINK }]),
    code: 'SYMLINK',
    entry: 'link',
  },
  {
    label: 'a zip bomb',
    zip: () =>
      buildZip([
        ...good,
        { name: 'bomb.bin', data: Buffer.alloc(1024), declaredSize: 3 * 1024 ** 3 },
      ]),
    code: 'TOO_LARGE',
    entry: 'bomb.bin',
  },
];

for (const c of cases) {
  test(`${c.label}: the export fails with ${c.code}; the previous copy stays`, async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open({ baseUrl: proxy.baseUrl });
    expect((await engine.syncOnce()).ok).toBe(true);
    const dir = path.join(h.root, 'Acme');
    const before = await snapshotTree(path.join(dir, 'Brand Skill'));

    await newSkill(brand.id);
    proxy.serve(c.zip());
    const report = await engine.syncOnce();
    expect(report.ok).toBe(false);
    expect(proxy.served).toBe(1);
    expect(report.failures).toHaveLength(1);
    const failure = report.failures[0];
    expect(failure?.code).toBe(c.code);
    if (c.entry) expect(failure?.message).toContain(c.entry);
    expect(failure?.message).toMatch(/previous Brand Skill\/ stays/);
    expect(await snapshotTree(path.join(dir, 'Brand Skill'))).toEqual(before);
    expect((await readInstalledSkill(dir))?.skillId).toBe(brand.skillId);
    expect((await readdir(h.root)).sort()).toEqual(['Acme']);
    expect(await readdir(dir)).not.toContain('evil.txt');
    expect(await leftoverDownloads(h.dataDir)).toEqual([]);
  });
}

test('an archive damaged in transit is downloaded again, a bounded number of times', async () => {
  const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
  const engine = h.open({ baseUrl: proxy.baseUrl });
  expect((await engine.syncOnce()).ok).toBe(true);
  const dir = path.join(h.root, 'Acme');
  const before = await snapshotTree(path.join(dir, 'Brand Skill'));

  await newSkill(brand.id);
  const whole = buildZip([...good, { name: 'more.md', data: 'more '.repeat(2000) }]);
  proxy.serve(whole.subarray(0, whole.length - 40)); // the end of the central directory is cut
  const report = await engine.syncOnce();
  expect(report.ok).toBe(false);
  expect(proxy.served).toBe(4); // the job's attempts
  expect(report.failures[0]?.message).toMatch(/gave up after 4 attempts/);
  expect(await snapshotTree(path.join(dir, 'Brand Skill'))).toEqual(before);

  // The service mends its archive: the next pass installs it.
  proxy.serve(null);
  const next = await engine.syncOnce();
  expect(next.failures).toEqual([]);
  expect((await readInstalledSkill(dir))?.skillId).not.toBe(brand.skillId);
});

async function newSkill(brandId: string): Promise<void> {
  const file = path.join(h.dir, 'logo.png');
  await writeFile(file, png(99, 8, 8));
  await h.client.uploadLogo(brandId, { path: file });
  await h.sim.control.advance(h.sim.control.durations().logoAnalysisMs);
}

// The export sync against the simulator over real HTTP: a ready brand's Skill is installed,
// an unchanged one is not downloaded again, failed exports are repeated or reported, a brand
// without an exportable Skill is a notice, and a logo or an applied edit brings the new Skill.
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readInstalledSkill } from '../../main/engine/export-parts/skill-install.ts';
import { listSkillVersions } from '../../main/engine/export-parts/skill-versions.ts';
import {
  exportNextCheckSetting,
  exportSyncKey,
  exportSyncKind,
  skillKeepVersionsSetting,
} from '../../main/engine/export-sync/index.ts';
import { refreshBrandsKind } from '../../main/engine/brands/brand-refresh.ts';
import { runJobNow } from '../../main/engine/queue/index.ts';
import { png } from '../api/helpers.ts';
import { skillTreeFiles } from '../export-parts/skill-fixtures.ts';
import { downloads, leftoverDownloads, requests, startHarness, type Harness } from './harness.ts';
import { zipFiles } from './zip-files.ts';

const EXPORT_POST = 'POST /v1/brands/{id}/exports';

let h: Harness;

beforeEach(async () => {
  h = await startHarness();
});

afterEach(async () => {
  await h.close();
});

/** The files of the brand's current export ZIP on the service, as path → sha256. */
async function serviceSkillFiles(brandId: string): Promise<Record<string, string>> {
  const exp = await h.client.exportAndWait(brandId);
  const zip = path.join(h.dir, `expected-${exp.skillId}.zip`);
  await h.client.downloadToFile(exp.download?.url as string, zip);
  return zipFiles(zip);
}

function brandDir(folder: string): string {
  return path.join(h.root, folder);
}

describe('export sync', () => {
  test('a ready brand gets its Skill installed, unpacked with its relative paths', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme Coffee', status: 'ready' });
    const engine = h.open();
    const report = await engine.syncOnce();
    expect(report.failures).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.sections.exports).toMatchObject({ installed: 1, failed: 0 });

    const dir = brandDir('Acme Coffee');
    const installed = await readInstalledSkill(dir);
    expect(installed?.skillId).toBe(brand.skillId);
    h.sim.control.clearLog();
    expect(await skillTreeFiles(path.join(dir, 'Brand Skill'))).toEqual(
      await serviceSkillFiles(brand.id),
    );
    expect(await readFile(path.join(dir, 'Brand Skill', 'SKILL.md'), 'utf8')).toContain(
      'Acme Coffee',
    );
    const stored = engine.store.exports.latestInstalled(brand.id);
    expect(stored?.skillId).toBe(brand.skillId);
    expect(stored?.path).toBe(path.join(dir, 'Brand Skill'));
    expect(await leftoverDownloads(h.dataDir)).toEqual([]);
    const notices = engine.store.activity.list({ limit: 50 });
    expect(notices.some((n) => n.code === 'BRAND_SKILL_INSTALLED' && n.brandId === brand.id)).toBe(
      true,
    );
  });

  test('an unchanged skillId downloads nothing', async () => {
    await h.sim.control.seedBrand({ name: 'Acme', status: 'ready', withExport: true });
    const engine = h.open();
    expect((await engine.syncOnce()).ok).toBe(true);
    expect(downloads(h.sim)).toBe(1);

    h.sim.control.clearLog();
    const again = await engine.syncOnce();
    expect(again.ok).toBe(true);
    // The brand record names its active Skill, and that Skill is on disk: no request at all.
    expect(again.sections.exports).toMatchObject({ installed: 0, failed: 0 });
    expect(requests(h.sim, EXPORT_POST)).toBe(0);
    expect(downloads(h.sim)).toBe(0);

    // A fresh data dir finds the same Skill on disk: it asks once (it knows no installed
    // Skill yet), and downloads nothing.
    await h.closeEngine();
    await rename(h.dataDir, `${h.dataDir}-old`);
    h.sim.control.clearLog();
    const fresh = await h.open().syncOnce();
    expect(fresh.sections.exports).toMatchObject({ installed: 0, unchanged: 1 });
    expect(requests(h.sim, EXPORT_POST)).toBe(1);
    expect(downloads(h.sim)).toBe(0);
  });

  test('a retryable export failure is requested again, then installed', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    h.sim.control.nextExportOutcome({ retryable: true });
    const report = await h.open().syncOnce();
    expect(report.failures).toEqual([]);
    expect(report.sections.exports).toMatchObject({ installed: 1 });
    expect(requests(h.sim, EXPORT_POST)).toBe(2);
    expect((await readInstalledSkill(brandDir('Acme')))?.skillId).toBe(brand.skillId);
  });

  test('retryable failures are repeated a bounded number of times, then reported', async () => {
    await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    for (let i = 0; i < 3; i++) h.sim.control.nextExportOutcome({ retryable: true });
    const report = await h.open().syncOnce();
    expect(report.ok).toBe(false);
    expect(requests(h.sim, EXPORT_POST)).toBe(3);
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]).toMatchObject({ area: 'Brand Skill', subject: 'Acme' });
    expect(report.failures[0]?.code).toBe('EXPORT_FAILED');
    expect(report.failures[0]?.message).toMatch(/failed 3 times/);
    expect(report.sections.exports).toMatchObject({ failed: 1, installed: 0 });
  });

  test('a non-retryable failure fails with its reason; the installed copy stays', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    expect((await engine.syncOnce()).ok).toBe(true);
    const before = await skillTreeFiles(path.join(brandDir('Acme'), 'Brand Skill'));

    // A new active Skill whose export cannot be produced.
    await newLogo(brand.id, 7);
    h.sim.control.nextExportOutcome({ retryable: false });
    h.sim.control.clearLog();
    const report = await engine.syncOnce();
    expect(report.ok).toBe(false);
    expect(requests(h.sim, EXPORT_POST)).toBe(1);
    expect(report.failures[0]?.code).toBe('EXPORT_FAILED');
    expect(report.failures[0]?.message).toMatch(/cannot export brand "Acme".*EXPORT_FAILED/);
    expect(await skillTreeFiles(path.join(brandDir('Acme'), 'Brand Skill'))).toEqual(before);
    expect((await readInstalledSkill(brandDir('Acme')))?.skillId).toBe(brand.skillId);
  });

  test('409 BRAND_SKILL_UNAVAILABLE is a notice, not a failure, and not repeated', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    h.sim.control.failNext(EXPORT_POST, {
      status: 409,
      code: 'BRAND_SKILL_UNAVAILABLE',
      message: 'brand has no exportable Skill yet',
    });
    const engine = h.open();
    const report = await engine.syncOnce();
    expect(report.ok).toBe(true);
    expect(report.failures).toEqual([]);
    expect(report.sections.exports).toMatchObject({ unavailable: 1, installed: 0 });
    expect(requests(h.sim, EXPORT_POST)).toBe(1);
    const notices = engine.store.activity.list({ limit: 50 });
    const notice = notices.find((n) => n.code === 'BRAND_SKILL_UNAVAILABLE');
    expect(notice?.brandId).toBe(brand.id);
    expect(notice?.level).toBe('info');
    expect(notice?.message).toMatch(/no exportable Skill yet/);
    expect(await readdir(brandDir('Acme'))).not.toContain('Brand Skill');
  });

  test('a logo that settled brings the new Skill; the previous copy is kept', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    const first = brand.skillId;
    const second = await newLogo(brand.id, 11);
    expect(second).not.toBe(first);

    engine.queue.start();
    engine.events.emit('brand:skill-changed', { brandId: brand.id, reason: 'logo' });
    await engine.queue.whenSettled();
    expect((await readInstalledSkill(brandDir('Acme')))?.skillId).toBe(second);
    const logo = await readdir(path.join(brandDir('Acme'), 'Brand Skill', 'assets', 'logo'));
    expect(logo).toEqual(['primary.png']);
    const versions = await listSkillVersions(brandDir('Acme'));
    expect(versions.map((v) => v.skillId)).toEqual([first]);
  });

  test('an applied Brand Edit brings the new Skill', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    const edit = h.sim.control.seedEdit({ brandId: brand.id, colorHex: '#123456' });
    await h.sim.control.advance(60_000);
    await h.client.applyEdit(brand.id, edit.id);
    const active = (await h.client.getBrand(brand.id)).skillId;
    expect(active).not.toBe(brand.skillId);

    engine.queue.start();
    engine.events.emit('brand:skill-changed', { brandId: brand.id, reason: 'edit' });
    await engine.queue.whenSettled();
    expect((await readInstalledSkill(brandDir('Acme')))?.skillId).toBe(active);
    const palette = await readFile(
      path.join(brandDir('Acme'), 'Brand Skill', 'assets', 'colors', 'palette.json'),
      'utf8',
    );
    expect(palette).toContain('#123456');
  });

  test('a Skill change while the job of the brand runs brings one more run, and the newest Skill', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    const second = await newLogo(brand.id, 41);

    // The job asks for the export of the second Skill and waits for it to be prepared…
    const held = h.holdNextWait();
    engine.queue.start();
    engine.events.emit('brand:skill-changed', { brandId: brand.id, reason: 'logo' });
    await held.reached;
    // …while a third Skill becomes active.
    const third = await newLogo(brand.id, 42);
    engine.events.emit('brand:skill-changed', { brandId: brand.id, reason: 'logo' });
    held.release();
    await engine.queue.whenSettled();
    expect(second).not.toBe(third);
    expect((await readInstalledSkill(brandDir('Acme')))?.skillId).toBe(third);
    const runs = engine.store.jobs.list({ kind: 'export.sync', brandId: brand.id });
    expect(runs.filter((j) => j.state === 'done')).toHaveLength(3);
  });

  test('the periodic check, once started, brings a new Skill without any other trigger', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open({ exportSync: { checkEveryMs: 20 } });
    await engine.syncOnce();
    const second = await newLogo(brand.id, 51);
    await engine.start();
    await expect
      .poll(async () => (await readInstalledSkill(brandDir('Acme')))?.skillId, { timeout: 10_000 })
      .toBe(second);
  });

  test('where the brand record does not name its active Skill, the next sync asks, and installs a Skill changed on the service', async () => {
    h.sim.control.setBrandRecordNamesSkill(false);
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    expect((await engine.syncOnce()).ok).toBe(true);
    expect((await readInstalledSkill(brandDir('Acme')))?.skillId).toBe(brand.skillId);

    const { skillId: newer } = h.sim.control.replaceActiveSkill(brand.id);
    h.sim.control.clearLog();
    const report = await engine.syncOnce();
    expect(report.ok).toBe(true);
    expect(report.sections.exports).toMatchObject({ installed: 1 });
    expect((await readInstalledSkill(brandDir('Acme')))?.skillId).toBe(newer);
    // One export request for the brand: the service reuses an export it has.
    expect(requests(h.sim, EXPORT_POST)).toBe(1);

    // Nothing changed since: it asks again (it cannot know), and downloads nothing.
    h.sim.control.clearLog();
    expect((await engine.syncOnce()).sections.exports).toMatchObject({ unchanged: 1 });
    expect(requests(h.sim, EXPORT_POST)).toBe(1);
    expect(downloads(h.sim)).toBe(0);
  });

  test('the periodic check is due by a time kept in the database, and a sync runs it when due', async () => {
    h.sim.control.setBrandRecordNamesSkill(false);
    await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const hour = 60 * 60 * 1000;
    const options = { exportSync: { checkEveryMs: hour } };
    let engine = h.open(options);
    await engine.syncOnce();
    const next = engine.store.settings.read(exportNextCheckSetting) as number;
    expect(next).toBeGreaterThan(Date.now() + hour - 60_000);
    const lastReason = (): string | undefined =>
      (engine.store.jobs.list({ kind: 'export.sync' })[0]?.payload as { reason: string })?.reason;

    // Kept across a restart (an app quit within the hour): the next pass is no periodic check.
    await h.closeEngine();
    engine = h.open(options);
    expect(engine.store.settings.read(exportNextCheckSetting)).toBe(next);
    await engine.syncOnce();
    expect(lastReason()).toBe('reconcile');

    // Its time has come (cron's next `sync --once`): the pass runs the check, and sets the next.
    engine.store.settings.write(exportNextCheckSetting, Date.now() - 1);
    await engine.syncOnce();
    expect(lastReason()).toBe('periodic');
    expect(engine.store.settings.read(exportNextCheckSetting)).toBeGreaterThan(Date.now());
  });

  test('start removes downloads no job needs any more', async () => {
    const engine = h.open();
    const downloadsDir = path.join(h.dataDir, 'skill-downloads');
    await mkdir(downloadsDir, { recursive: true });
    await writeFile(path.join(downloadsDir, 'export-stray.zip.part'), 'partial');
    await writeFile(path.join(downloadsDir, 'unrelated.txt'), 'not ours');
    await engine.start();
    expect(await readdir(downloadsDir)).toEqual(['unrelated.txt']);
  });

  test('keeps the set number of previous versions', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    engine.store.settings.write(skillKeepVersionsSetting, 1);
    await engine.syncOnce();
    const second = await newLogo(brand.id, 21);
    await engine.syncOnce();
    const third = await newLogo(brand.id, 22);
    await engine.syncOnce();
    expect((await readInstalledSkill(brandDir('Acme')))?.skillId).toBe(third);
    expect((await listSkillVersions(brandDir('Acme'))).map((v) => v.skillId)).toEqual([second]);
  });

  test('a renamed brand folder is followed; a deleted one is made again', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    await rename(brandDir('Acme'), brandDir('Acme (mine)'));
    const second = await newLogo(brand.id, 31);
    const report = await engine.syncOnce();
    expect(report.ok).toBe(true);
    expect(await readdir(h.root)).toEqual(['Acme (mine)']);
    expect((await readInstalledSkill(brandDir('Acme (mine)')))?.skillId).toBe(second);

    await rm(brandDir('Acme (mine)'), { recursive: true });
    const again = await engine.syncOnce();
    expect(again.failures).toEqual([]);
    expect(await readdir(h.root)).toEqual(['Acme']);
    expect((await readInstalledSkill(brandDir('Acme')))?.skillId).toBe(second);
  });

  test('an export whose folder was deleted makes it again itself, without a brand listing', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
    const engine = h.open();
    await engine.syncOnce();
    await rm(brandDir('Acme'), { recursive: true });
    const listings = requests(h.sim, 'GET /v1/brands');
    engine.queue.start();
    const outcome = await runJobNow(
      engine.queue,
      exportSyncKind,
      { brandId: brand.id, reason: 'cli' },
      exportSyncKey(brand.id),
    );
    expect(outcome.state).toBe('done');
    expect(requests(h.sim, 'GET /v1/brands')).toBe(listings);
    expect(await readdir(h.root)).toEqual(['Acme']);
    expect((await readInstalledSkill(brandDir('Acme')))?.skillId).toBe(brand.skillId);
    expect(engine.store.brands.get(brand.id)?.folderName).toBe('Acme');
  });

  test('the listing and exports making a deleted folder at once make it once', async () => {
    const brands = await Promise.all(
      ['Acme', 'Bolt', 'Cove'].map((name) => h.sim.control.seedBrand({ name, status: 'ready' })),
    );
    const engine = h.open();
    await engine.syncOnce();
    for (const name of ['Acme', 'Bolt', 'Cove']) await rm(brandDir(name), { recursive: true });
    engine.queue.start();
    const outcomes = await Promise.all([
      runJobNow(engine.queue, refreshBrandsKind, {}, { key: refreshBrandsKind }),
      ...brands.map((b) =>
        runJobNow(
          engine.queue,
          exportSyncKind,
          { brandId: b.id, reason: 'cli' },
          exportSyncKey(b.id),
        ),
      ),
    ]);
    expect(outcomes.map((o) => o.state)).toEqual(['done', 'done', 'done', 'done']);
    expect((await readdir(h.root)).sort()).toEqual(['Acme', 'Bolt', 'Cove']);
  });

  test('a brand not ready yet gets no job; once ready, the listing brings its Skill', async () => {
    const brand = await h.sim.control.seedBrand({ name: 'Later', status: 'analyzing' });
    const engine = h.open();
    const first = await engine.syncOnce();
    expect(first.ok).toBe(true);
    expect(requests(h.sim, EXPORT_POST)).toBe(0);
    h.sim.control.finishBrand(brand.id);
    const second = await engine.syncOnce();
    expect(second.sections.exports).toMatchObject({ installed: 1 });
    expect(await readdir(path.join(brandDir('Later'), 'Brand Skill'))).toContain('SKILL.md');
  });
});

/** Uploads a new logo and lets its analysis settle: returns the brand's new active Skill. */
async function newLogo(brandId: string, seed: number): Promise<string> {
  const file = path.join(h.dir, `logo-${seed}.png`);
  await writeFile(file, png(seed, 8, 8));
  await h.client.uploadLogo(brandId, { path: file });
  await h.sim.control.advance(h.sim.control.durations().logoAnalysisMs);
  const brand = await h.client.getBrand(brandId);
  expect(brand.status).toBe('ready');
  return brand.skillId as string;
}

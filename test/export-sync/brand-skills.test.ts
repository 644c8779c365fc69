// Beta Brand Skill jobs added by ID: polled until completed, their ZIP (a URL or inline
// base64) stored like an export in a folder of their own, failures reported, and deleted
// through /brand-skills.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readInstalledSkill } from '../../main/engine/export-parts/skill-install.ts';
import { MARKER_FILE } from '../../main/engine/folder-parts/folder-layout.ts';
import {
  addBetaSkill,
  BetaSkillInputError,
  deleteBetaSkill,
  getTracked,
  listTracked,
  showBetaSkill,
} from '../../main/engine/brand-skills/index.ts';
import { isApiError } from '../../main/engine/api/index.ts';
import { skillTreeFiles } from '../export-parts/skill-fixtures.ts';
import { downloads, leftoverDownloads, requests, startHarness, type Harness } from './harness.ts';
import { zipFiles } from './zip-files.ts';

let h: Harness;

beforeEach(async () => {
  h = await startHarness();
});

afterEach(async () => {
  await h.close();
});

async function createBeta(brandName: string, website = 'https://acme.example') {
  return h.client.createBrandSkill({ sources: [{ kind: 'website', url: website }], brandName });
}

describe('beta Brand Skills', () => {
  test('an added job is polled until completed and its ZIP installed in its own folder', async () => {
    const beta = await createBeta('Acme Beta');
    const engine = h.open();
    const { added, record } = addBetaSkill(engine, beta.id);
    expect(added).toBe(true);
    expect(record.status).toBeNull();

    const report = await engine.syncOnce();
    expect(report.failures).toEqual([]);
    expect(report.sections.brandSkills).toMatchObject({ installed: 1, failed: 0 });

    const dir = path.join(h.root, 'Acme Beta');
    const marker = JSON.parse(await readFile(path.join(dir, MARKER_FILE), 'utf8'));
    expect(marker.brandId).toBe(beta.brandId);
    const tracked = getTracked(engine.store, beta.id);
    expect(tracked).toMatchObject({
      status: 'completed',
      brandId: beta.brandId,
      brandName: 'Acme Beta',
      folderName: 'Acme Beta',
    });
    expect((await readInstalledSkill(dir))?.skillId).toBe(tracked?.skillId);

    // Byte for byte the ZIP the service holds.
    const service = await h.client.getBrandSkill(beta.id);
    const zip = path.join(h.dir, 'beta.zip');
    await h.client.downloadToFile(service.zip?.url as string, zip);
    expect(await skillTreeFiles(path.join(dir, 'Brand Skill'))).toEqual(await zipFiles(zip));
    expect(await leftoverDownloads(h.dataDir)).toEqual([]);

    // Done once: the next pass neither polls nor downloads.
    h.sim.control.clearLog();
    const again = await engine.syncOnce();
    expect(again.ok).toBe(true);
    expect(requests(h.sim, 'GET /v1/brand-skills/{id}')).toBe(0);
    expect(downloads(h.sim)).toBe(0);
  });

  test('a ZIP sent inline as base64 is installed without a download', async () => {
    h.sim.control.setBetaZipMode('base64');
    const beta = await createBeta('Inline Co');
    const engine = h.open();
    addBetaSkill(engine, beta.id);
    const report = await engine.syncOnce();
    expect(report.failures).toEqual([]);
    expect(downloads(h.sim)).toBe(0);
    const dir = path.join(h.root, 'Inline Co');
    expect(await readdir(path.join(dir, 'Brand Skill'))).toContain('SKILL.md');
    expect((await readInstalledSkill(dir))?.skillId).toBe(
      getTracked(engine.store, beta.id)?.skillId,
    );
  });

  test('a failed beta job is reported with its code and not polled again', async () => {
    h.sim.control.nextBetaOutcome('SCRAPE_FAILED');
    const beta = await createBeta('Broken Co');
    const engine = h.open();
    addBetaSkill(engine, beta.id);
    const report = await engine.syncOnce();
    expect(report.ok).toBe(false);
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]).toMatchObject({ area: 'beta Brand Skill', code: 'SCRAPE_FAILED' });
    expect(report.failures[0]?.message).toMatch(/Broken Co.*failed on the service/);
    expect(getTracked(engine.store, beta.id)?.status).toBe('failed');
    expect(await readdir(h.root).catch(() => [])).not.toContain('Broken Co');

    h.sim.control.clearLog();
    expect((await engine.syncOnce()).ok).toBe(true);
    expect(requests(h.sim, 'GET /v1/brand-skills/{id}')).toBe(0);
  });

  test('show gives the service record beside the local one; delete removes it on the service and keeps the folder', async () => {
    const beta = await createBeta('Gone Co');
    const engine = h.open();
    addBetaSkill(engine, beta.id);
    await engine.syncOnce();

    const shown = await showBetaSkill(engine, beta.id);
    expect(shown.service.status).toBe('completed');
    expect(shown.tracked?.folderName).toBe('Gone Co');

    const { tracked } = await deleteBetaSkill(engine, beta.id);
    expect(tracked?.folderName).toBe('Gone Co');
    expect(requests(h.sim, 'DELETE /v1/brand-skills/{id}')).toBe(1);
    expect(listTracked(engine.store)).toEqual([]);
    const error = await h.client.getBrandSkill(beta.id).catch((e: unknown) => e);
    expect(isApiError(error) && error.code).toBe('BRAND_SKILL_NOT_FOUND');
    expect(await readdir(path.join(h.root, 'Gone Co', 'Brand Skill'))).toContain('SKILL.md');
  });

  test('deleting a job still being polled stops its job', async () => {
    const beta = await createBeta('Early Co');
    const engine = h.open();
    const { job } = addBetaSkill(engine, beta.id);
    await deleteBetaSkill(engine, beta.id);
    expect(engine.store.jobs.get(job.id)?.state).toBe('cancelled');
    const report = await engine.syncOnce();
    expect(report.ok).toBe(true);
    expect(requests(h.sim, 'GET /v1/brand-skills/{id}')).toBe(0);
  });

  test('an unknown beta ID fails with a clear message and is not polled again', async () => {
    const engine = h.open();
    addBetaSkill(engine, '0b8e7c1e-0000-4000-8000-000000000001');
    const report = await engine.syncOnce();
    expect(report.failures[0]?.code).toBe('BRAND_SKILL_NOT_FOUND');
    expect(report.failures[0]?.message).toMatch(/does not exist on the service/);
    h.sim.control.clearLog();
    expect((await engine.syncOnce()).ok).toBe(true);
    expect(requests(h.sim, 'GET /v1/brand-skills/{id}')).toBe(0);
  });

  test('a malformed ID is refused before anything is stored', () => {
    const engine = h.open();
    expect(() => addBetaSkill(engine, 'not-an-id')).toThrow(BetaSkillInputError);
    expect(listTracked(engine.store)).toEqual([]);
  });
});

// Logo/: the newest accepted file becomes the brand's logo; the engine follows the brand
// through analyzing back to ready and says its Skill changed. Older files are skipped with
// the reason; the same bytes again send nothing.
import { mkdir, rename, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeGif, makePng, makeSvg } from '../folder-parts/fixtures.ts';
import { folderSection, harness, waitFor, type Harness } from './harness.ts';

const LOGO = 'PUT /v1/brands/{id}/logo/file';
let h: Harness;
beforeEach(async () => {
  h = await harness();
});
afterEach(async () => {
  await h.close();
});

const logoSends = () => h.sim.control.log({ route: LOGO }).filter((l) => l.status === 200).length;

async function at(relPath: string, seconds: number): Promise<void> {
  const t = new Date(Date.UTC(2026, 0, 1) + seconds * 1000);
  await utimes(path.join(h.root, 'Acme', ...relPath.split('/')), t, t);
}

/**
 * Puts a file into Acme/ with its modification time already set: written beside the sync
 * root, dated, then moved in (a rename keeps the time), so no scan can see it undated.
 */
async function putAt(relPath: string, bytes: Buffer, seconds: number): Promise<void> {
  const staged = path.join(path.dirname(h.root), `staged-${path.basename(relPath)}`);
  await writeFile(staged, bytes);
  const t = new Date(Date.UTC(2026, 0, 1) + seconds * 1000);
  await utimes(staged, t, t);
  const target = path.join(h.root, 'Acme', ...relPath.split('/'));
  await mkdir(path.dirname(target), { recursive: true });
  await rename(staged, target);
}

test('the newest logo file is set, the brand is followed to ready, older ones are skipped', async () => {
  const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'ready' });
  const engine = h.open();
  await engine.syncOnce();
  const changed: string[] = [];
  engine.events.on('brand:skill-changed', (e) => changed.push(`${e.brandId}:${e.reason}`));
  await putAt('Logo/old.png', makePng({ seed: 1 }), 100);
  await putAt('Logo/new.svg', makeSvg(), 200);
  await putAt('Logo/anim.gif', makeGif(), 300); // the newest, but not a logo format

  const pass = engine.syncOnce();
  await waitFor('the logo upload', () => logoSends() === 1);
  await h.sim.control.advance(10_000); // the logo analysis
  const report = await pass;
  expect(report.failures).toEqual([]);
  expect(report.ok).toBe(true);
  expect(changed).toEqual([`${brand.id}:logo`]);
  expect(engine.store.brands.get(brand.id)?.status).toBe('ready');
  expect(h.file(brand.id, 'Logo/new.svg')).toMatchObject({ state: 'uploaded' });
  expect(h.file(brand.id, 'Logo/old.png')).toMatchObject({
    state: 'skipped',
    lastError: 'OLDER_LOGO',
    reason: 'Not the newest file in Logo/: "Logo/new.svg" is the logo',
  });
  expect(h.file(brand.id, 'Logo/anim.gif')).toMatchObject({
    state: 'skipped',
    reason: 'GIF is not accepted: PNG, JPEG, WebP, SVG or AVIF',
  });
  const section = folderSection(report);
  expect(section.logos.map((l) => l.path)).toEqual(['Logo/new.svg']);
  expect(section.summary).toContain('Logo of Acme set from Logo/new.svg');
  // Nothing went to the Library from Logo/.
  expect(h.sim.control.uploads(brand.id)).toEqual([]);

  // Touched, same bytes: nothing is sent.
  await at('Logo/new.svg', 400);
  expect((await engine.syncOnce()).ok).toBe(true);
  expect(logoSends()).toBe(1);
  expect(h.file(brand.id, 'Logo/new.svg')?.state).toBe('uploaded');

  // A newer logo: set too.
  await h.put('Acme', 'Logo/v2.png', makePng({ seed: 2 }));
  const next = engine.syncOnce();
  await waitFor('the second logo upload', () => logoSends() === 2);
  await h.sim.control.advance(10_000);
  expect((await next).ok).toBe(true);
  expect(h.file(brand.id, 'Logo/v2.png')?.state).toBe('uploaded');
  expect(changed).toHaveLength(2);
});

test('a logo for a brand still being analysed waits until it is ready', async () => {
  const brand = await h.sim.control.seedBrand({ name: 'Acme', status: 'analyzing' });
  const engine = h.open();
  await engine.syncOnce();
  await h.put('Acme', 'Logo/mark.png', makePng({ seed: 3 }));
  const pass = engine.syncOnce();
  await waitFor('the refused logo upload', () =>
    h.sim.control.log({ route: LOGO }).some((l) => l.status === 409),
  );
  await h.sim.control.advance(30_000); // the brand analysis
  await waitFor('the logo upload', () => logoSends() === 1);
  await h.sim.control.advance(10_000);
  const report = await pass;
  expect(report.ok).toBe(true);
  expect(h.file(brand.id, 'Logo/mark.png')?.state).toBe('uploaded');
  expect(engine.store.brands.get(brand.id)?.status).toBe('ready');
});

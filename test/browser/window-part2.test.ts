// The window, part 2, in Debian's Chromium over the headless host and the simulator: Brand
// Edits (apply, discard, a question answered, stale and conflict explained), image edits (to
// a result, refused by the content rules, the 4K entitlement, short of credits), activity
// (paused, the service's Retry-After wait with its time, a failed upload retried, offline),
// settings kept across a restart of the host, and the screen of a revoked key. Every screen
// passes axe in light and dark and is photographed.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { AppRuntime } from '../../main/engine/app/app-runtime.ts';
import { startHeadlessHost } from '../../main/hosts/headless/index.ts';
import { startSimulator } from '../../simulator/index.ts';
import { KEY, memoryKeyStore, RENDERER } from '../bridge/harness.ts';
import { makePng } from '../folder-parts/fixtures.ts';
import { launchChromium } from '../support/chromium.ts';
import {
  brandId,
  chromiumMissing,
  expectAccessible,
  openWindow,
  screenshot,
} from './window-harness.ts';

describe.skipIf(chromiumMissing !== null)(
  `window part 2 ${chromiumMissing ?? ''}`,
  { timeout: 120_000 },
  () => {
    test('Brand Edits: a change set shown exactly; apply, discard, a question answered; stale and conflict explained', async () => {
      const win = await openWindow({ simulator: { durations: { editPrepareMs: 300 } } });
      const { page, bridge } = win;
      const northwind = await brandId(bridge, 'Northwind Coffee');
      const control = bridge.sim.control;
      await page.goto(`${bridge.host.origin}/#/brand/${northwind}/edits`);
      const edit = page.getByRole('article');
      await page.getByRole('button', { name: /Warmer primary colour/ }).click();
      await edit
        .getByRole('heading', { name: 'Warmer primary colour for the autumn range' })
        .waitFor();
      await edit.getByText('Before').first().waitFor();
      await expectAccessible(page, 'edits');
      await screenshot(page, 'edits', { dark: true });

      // Apply, after a confirmation; the new Brand Skill arrives and its tab says which.
      await edit.getByRole('button', { name: 'Apply' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Apply edit' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Edit applied' })
        .waitFor({ timeout: 20_000 });
      const skill = await bridge.ok('skill', { brandId: northwind });
      await page.getByRole('tab', { name: 'Brand Skill' }).click();
      await page.getByText(skill.skillId.slice(0, 8), { exact: true }).waitFor();
      await page.getByRole('tab', { name: 'Brand Edits' }).click();

      // The question: answered within its bounds, the edit is prepared again.
      await page.getByRole('button', { name: /Add a seasonal accent colour/ }).click();
      await edit.getByLabel('Your answer').waitFor();
      await expectAccessible(page, 'edit-question');
      await screenshot(page, 'edit-question');
      await edit.getByLabel('Your answer').fill('A deep cranberry, used sparingly.');
      // Images for the answer are picked from the Library, not typed as IDs.
      const answerImages = edit.getByRole('group', { name: /Images from the Library/ });
      await answerImages.getByRole('checkbox').first().check();
      await answerImages.getByText('(1 of at most 9)').waitFor();
      const answered = page.waitForRequest((r) => r.url().endsWith('/api/answerEdit'));
      await edit.getByRole('button', { name: 'Send answer' }).click();
      const answer = (await answered).postDataJSON() as { imageIds?: string[] };
      expect(answer.imageIds).toHaveLength(1);
      const library = await bridge.ok('library', { brandId: northwind, type: 'image', limit: 500 });
      expect(library.items.map((i: { id: string }) => i.id)).toContain(answer.imageIds?.[0]);
      await page.getByRole('status').filter({ hasText: 'Answer sent' }).waitFor();
      await expect
        .poll(
          async () =>
            (await bridge.ok('edits', { brandId: northwind })).edits.find(
              (e: { changeSummary: string }) => e.changeSummary === 'Add a seasonal accent colour',
            )?.status,
          { timeout: 15_000 },
        )
        .toBe('awaiting_approval');

      // Discard, after a confirmation.
      await page.getByRole('button', { name: /Add a seasonal accent colour/ }).click();
      await edit.getByRole('button', { name: 'Discard' }).waitFor({ timeout: 15_000 });
      await edit.getByRole('button', { name: 'Discard' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Discard edit' }).click();
      await page.getByRole('status').filter({ hasText: 'Edit discarded' }).waitFor();

      // Stale: the brand changed while this edit waited.
      const first = control.seedEdit({
        brandId: northwind,
        status: 'awaiting_approval',
        changeSummary: 'Rounder logo',
      });
      const second = control.seedEdit({
        brandId: northwind,
        status: 'awaiting_approval',
        changeSummary: 'Brighter accent',
      });
      await bridge.ok('applyEdit', { brandId: northwind, editId: first.id });
      await page.reload();
      await page.getByRole('button', { name: /Brighter accent/ }).click();
      await edit.getByRole('button', { name: 'Apply' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Apply edit' }).click();
      await edit.getByText('This edit is out of date').waitFor();
      await screenshot(page, 'edit-stale');
      void second;

      // Conflict: the service refuses the discard in the edit's present state.
      const third = control.seedEdit({
        brandId: northwind,
        status: 'awaiting_approval',
        changeSummary: 'Quieter voice',
      });
      control.failNext('POST /v1/brands/{id}/edits/{editId}/discard', {
        status: 409,
        code: 'BRAND_EDIT_STATE_CONFLICT',
        message: 'The edit cannot be discarded in its present state.',
      });
      await page.reload();
      await page.getByRole('button', { name: /Quieter voice/ }).click();
      await edit.getByRole('button', { name: 'Discard' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Discard edit' }).click();
      await edit.getByText('This edit cannot do that now').waitFor();
      void third;
    });

    test('image edit: the cost before sending, the result beside the original; content rules, 4K and credits explained', async () => {
      // The service's clock moves only when the test says: the edit cannot end before the
      // window is looked at, and passes through `generating` every run.
      const win = await openWindow({
        simulator: { manualClock: true, durations: { imageMs: 300 } },
      });
      const { page, bridge } = win;
      const control = bridge.sim.control;
      const northwind = await brandId(bridge, 'Northwind Coffee');
      await page.goto(`${bridge.host.origin}/#/brand/${northwind}/library`);
      await page.getByRole('searchbox', { name: 'Search the Library' }).fill('latte');
      await page.locator('.library .summary').getByText('1 match').waitFor();
      await page.locator('.tile').first().click();
      await page.getByRole('button', { name: 'Edit with a prompt…' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(/1 credit ·/).waitFor();
      await dialog.getByLabel('Prompt').fill('Put the cup on a warm oak table');
      // Reference images from the whole Library (the Library tab's search does not narrow
      // them), within the service's limit.
      const refs = dialog.getByRole('group', { name: /Reference images/ });
      await refs.getByRole('checkbox').nth(1).waitFor();
      await refs.getByRole('checkbox').nth(0).check();
      await refs.getByRole('checkbox').nth(1).check();
      await refs.getByText('(2 of at most 9)').waitFor();
      // The answer, not the request: the bridge answers once the service has the edit, so the
      // clock moves below from the edit's start (moved before it, the edit would begin later
      // and never be done at 300 ms).
      const sent = page.waitForResponse((r) => r.url().endsWith('/api/imageEdit'));
      await dialog.getByRole('button', { name: 'Edit for 1 credit' }).click();
      const answer = await sent;
      expect(answer.status()).toBe(200);
      expect(
        (answer.request().postDataJSON() as { referenceIds?: string[] }).referenceIds,
      ).toHaveLength(2);
      expect(control.log({ route: 'POST /v1/images/{id}/edit' })).toHaveLength(1);
      // Still running in a status the interface never named (the service says `generating`
      // now): the dialog shows it running, then the result.
      await control.advance(150);
      await dialog.getByText('Editing… this takes a little while.').waitFor();
      await control.advance(150);
      await dialog.getByRole('img', { name: 'Edited result' }).waitFor({ timeout: 20_000 });
      await expectAccessible(page, 'image-edit');
      await screenshot(page, 'image-edit', { dark: true });

      await dialog.getByLabel('Prompt').fill('Something unsafe');
      const unsafe = page.waitForResponse((r) => r.url().endsWith('/api/imageEdit'));
      await dialog.getByRole('button', { name: 'Edit for 1 credit' }).click();
      await unsafe;
      await control.advance(300);
      await dialog
        .getByText(/declined this edit under its content rules/)
        .waitFor({ timeout: 20_000 });

      bridge.sim.control.setEntitlements(['image-edit', 'model-selection']);
      await dialog.getByLabel('Size').selectOption('4K');
      await dialog.getByText(/2 credits ·/).waitFor();
      await dialog.getByLabel('Prompt').fill('Same, larger');
      await dialog.getByRole('button', { name: 'Edit for 2 credits' }).click();
      await dialog.getByText(/does not include .*4K/i).waitFor();

      bridge.sim.control.setEntitlements(['image-edit', '4k', 'model-selection']);
      bridge.sim.control.setCredits(null, { balance: 1 });
      await bridge.ok('syncNow');
      await dialog.getByLabel('Size').selectOption('2K');
      await dialog.getByLabel('Size').selectOption('4K');
      await expect
        .poll(() => dialog.getByRole('button', { name: 'Edit for 2 credits' }).isDisabled(), {
          timeout: 15_000,
        })
        .toBe(true);
      // The sidebar agrees with its noun, and warns.
      const badge = page.getByRole('button', { name: 'Credits by workspace' });
      await expect.poll(() => badge.textContent()).toMatch(/^\s*1\s+credit\s+Low\s*$/);
      await screenshot(page, 'image-edit-short');
    });

    test('credits: every workspace, unlimited said as such, and what recent actions cost', async () => {
      const win = await openWindow({ simulator: { durations: { imageMs: 200 } } });
      const { page, bridge } = win;
      const northwind = await brandId(bridge, 'Northwind Coffee');
      bridge.sim.control.addWorkspace({ name: 'Open Studio', unlimited: true });
      const item = (await bridge.ok('library', { brandId: northwind, type: 'image', limit: 1 }))
        .items[0];
      await bridge.ok('imageEdit', {
        brandId: northwind,
        imageId: item.id,
        prompt: 'Warmer light',
        size: '2K',
      });
      await bridge.ok('syncNow');
      await page.goto(`${bridge.host.origin}/#/credits`);
      const wallets = page.locator('ul.wallets');
      await wallets.getByText('Personal').waitFor();
      await expect.poll(() => wallets.textContent(), { timeout: 15_000 }).toContain('Open Studio');
      await expect(wallets.textContent()).resolves.toContain('Unlimited');
      await expect(wallets.textContent()).resolves.toContain('Studio North');
      const costs = page.getByRole('table');
      await expect.poll(() => costs.textContent()).toMatch(/1 credit/);
      await expectAccessible(page, 'credits');
      await screenshot(page, 'credits', { dark: true });
    });

    test('activity: paused by you, the service asking to wait until a time, a failed upload retried, offline', async () => {
      const win = await openWindow();
      const { page, bridge } = win;
      const control = bridge.sim.control;
      await page.goto(`${bridge.host.origin}/#/activity`);
      await page.getByRole('heading', { name: 'Done', exact: true }).waitFor();

      await page.getByRole('button', { name: 'Pause all' }).click();
      await page.getByText('Paused by you. Nothing is sent or fetched until you resume.').waitFor();
      await page.getByRole('complementary').getByText('Paused by you').waitFor();
      await expectAccessible(page, 'activity-paused');
      await screenshot(page, 'activity-paused', { dark: true });
      await page.getByRole('button', { name: 'Resume all' }).click();
      await page.getByRole('button', { name: 'Pause all' }).waitFor();

      // A file the service refuses for good: failed, with Retry; the retry uploads it.
      const folder = path.join(bridge.root, 'Lumen Labs');
      await mkdir(folder, { recursive: true });
      control.failNext('POST /v1/images/uploads/file', {
        status: 400,
        code: 'UNSUPPORTED_FORMAT',
        message: 'The file is not an image the service takes.',
        count: 1,
      });
      await writeFile(path.join(folder, 'poster.png'), makePng({ width: 5, height: 5, seed: 3 }));
      await page.getByRole('heading', { name: /^Needs you/ }).waitFor();
      const failed = page.locator('li.failed', { hasText: 'poster.png' });
      await failed.waitFor({ timeout: 20_000 });
      await screenshot(page, 'activity-failed', { toasts: true });
      await failed.getByRole('button', { name: 'Retry' }).click();
      await expect
        .poll(
          async () =>
            (await bridge.ok('files', { brandId: 'Lumen Labs' })).files.find(
              (f: { path: string }) => f.path === 'poster.png',
            )?.state,
          { timeout: 20_000 },
        )
        .toBe('uploaded');

      // The service asks us to wait: the time is said.
      control.setFaults('POST /v1/images/uploads/file:429=1,retry-after=600');
      await writeFile(path.join(folder, 'flyer.png'), makePng({ width: 7, height: 7, seed: 9 }));
      await page
        .getByText(/The service asked us to wait until \d/)
        .first()
        .waitFor({ timeout: 20_000 });
      // The upload held by the wait says so, not "Working…"; the sidebar says it briefly.
      // (Every upload the wait holds says it: one or more, with the machine's speed.)
      await page
        .getByText(/^Waiting for the service until \d/)
        .first()
        .waitFor();
      const line = page.locator('.sidebar [role="status"] .line');
      await line.filter({ hasText: /^Waiting until \d/ }).waitFor();
      expect(await line.getAttribute('title')).toMatch(/^The service asked us to wait until \d/);
      await expectAccessible(page, 'activity-wait');
      await screenshot(page, 'activity-wait');
      control.clearFaults();
    });

    test('activity offline: what waits, and since when', async () => {
      const win = await openWindow();
      const { page, bridge } = win;
      await page.goto(`${bridge.host.origin}/#/activity`);
      await page.getByRole('heading', { name: 'Done', exact: true }).waitFor();
      await bridge.sim.close();
      await bridge.ok('syncNow');
      await page
        .getByText(/^Offline since/)
        .first()
        .waitFor({ timeout: 20_000 });
      await page.getByRole('heading', { name: 'Why work waits' }).waitFor();
      // In words: no endpoint or socket code, and what waits says it waits for the connection.
      await page.getByText('The service could not be reached.').first().waitFor();
      await page
        .getByText(/^Waiting for the connection/)
        .first()
        .waitFor();
      const main = (await page.locator('main').textContent()) ?? '';
      expect(main).not.toMatch(/ECONNREFUSED|GET \/|\{id\}|\.\./);
      await expectAccessible(page, 'activity-offline');
      await screenshot(page, 'activity-offline');
    });

    test('settings are saved, and kept after the host restarts', async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'window-settings-'));
      const sim = await startSimulator({ apiKeys: [KEY], demo: true, rateLimit: false });
      const browser = await launchChromium();
      const keyStore = memoryKeyStore();
      const start = async () => {
        const app = await AppRuntime.start({
          dataDir: path.join(dir, 'data'),
          baseUrl: sim.baseUrl,
          keyStore,
          credentials: { kind: 'api-key', secret: KEY, source: 'environment' },
          host: { kind: 'browser', loginItemReason: 'a browser page cannot start at login' },
        });
        const host = await startHeadlessHost({ app, port: 0, rendererDir: RENDERER });
        return { app, host };
      };
      try {
        let { app, host } = await start();
        let page = await (await browser.newContext()).newPage();
        await page.goto(`${host.url}`);
        await page.goto(`${host.origin}/#/settings`);
        await page.getByRole('heading', { name: 'Media cache' }).waitFor();
        await page
          .getByText('Start at login is not offered here: a browser page cannot start at login')
          .waitFor();
        await expectAccessible(page, 'settings');
        await screenshot(page, 'settings', { dark: true });

        const root = path.join(dir, 'Brand folders');
        await page.getByLabel('Sync folder').fill(root);
        await page.getByRole('button', { name: 'Move' }).click();
        await page.getByRole('status').filter({ hasText: 'Sync folder changed' }).waitFor();
        await page.getByLabel('Brand Skill versions kept').fill('5');
        await page.getByLabel('Brand Skill versions kept').press('Tab');
        await page.getByLabel('Largest size (MB)').fill('64');
        await page.getByLabel('Largest size (MB)').press('Tab');
        await page.getByText('Dark').click();
        await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe('dark');
        await expect
          .poll(() =>
            page.evaluate(async () => {
              const answer = await fetch('/api/settings', {
                method: 'POST',
                body: '{}',
                headers: { 'content-type': 'application/json' },
              });
              return ((await answer.json()) as { data: { skillVersionsKept: number } }).data
                .skillVersionsKept;
            }),
          )
          .toBe(5);
        await page.getByLabel('Brand Skill versions kept').fill('0');
        await page.getByLabel('Brand Skill versions kept').press('Tab');
        await page.getByText('Brand Skill versions kept must be 1 or more.').first().waitFor();

        await host.close();
        await app.close();
        ({ app, host } = await start());
        page = await (await browser.newContext({ colorScheme: 'light' })).newPage();
        await page.goto(host.url);
        await page.goto(`${host.origin}/#/settings`);
        // The settings are shown once the engine's answer is in (the page's sections appear):
        // read the fields then.
        await page.getByRole('heading', { name: 'Media cache' }).waitFor();
        await expect.poll(() => page.getByLabel('Sync folder').inputValue()).toBe(root);
        expect(await page.getByLabel('Brand Skill versions kept').inputValue()).toBe('5');
        expect(await page.getByLabel('Largest size (MB)').inputValue()).toBe('64');
        // The dark theme chosen here overrides the light OS.
        await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe('dark');
        await host.close();
        await app.close();
      } finally {
        await browser.close();
        await sim.close();
        await rm(dir, { recursive: true, force: true });
      }
    });

    test('a revoked key: a clear screen, how to sign in again, nothing mirrored deleted', async () => {
      const win = await openWindow();
      const { page, bridge } = win;
      await page.getByRole('heading', { name: 'Northwind Coffee' }).waitFor();
      await expect
        .poll(
          async () =>
            (await bridge.ok('status')).brands.find(
              (b: { name: string }) => b.name === 'Northwind Coffee',
            )?.skill.installedSkillId ?? null,
          { timeout: 15_000 },
        )
        .not.toBeNull();
      for (const route of [
        'GET /v1/brands',
        'GET /v1/credits',
        'GET /v1/brands/{id}',
        'GET /v1/brands/{id}/library',
      ]) {
        bridge.sim.control.failNext(route, {
          status: 401,
          code: 'UNAUTHORIZED',
          message: 'The API key is not valid.',
          count: 50,
        });
      }
      await bridge.ok('syncNow');
      await page
        .getByRole('heading', { name: 'Your key no longer works' })
        .waitFor({ timeout: 20_000 });
      await page
        .getByText('Your brand folders and their Brand Skills stay on this computer')
        .waitFor();
      await expectAccessible(page, 'signed-out');
      await screenshot(page, 'signed-out', { dark: true });
      await page.getByRole('button', { name: 'Sign in again' }).click();
      await page.getByRole('heading', { name: 'Welcome to Brand Sync' }).waitFor();
    });
  },
);

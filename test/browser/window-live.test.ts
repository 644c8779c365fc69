// A live window, in Debian's Chromium over the headless host and the simulator: what it shows
// stays true while it is open, with no reload. The service finishes a brand, an edit and an
// image edit on its own (its clock moved by the test) and the window shows each end; a
// discard, an upload, a spend and a delete each change every figure that shows them; the
// service goes away and comes back, and the window says so. Every wait is for what the
// window announces (a role with a name, a data-state, a text), never for a fixed time.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { KEY } from '../bridge/harness.ts';
import { makePng } from '../folder-parts/fixtures.ts';
import { brandId, chromiumMissing, expectAccessible, openWindow } from './window-harness.ts';
import type { Page } from '@playwright/test';

/** The sidebar's entry of a brand (its link, status dot and count of edits waiting). */
const sidebarBrand = (page: Page, name: string) =>
  page
    .getByRole('complementary')
    .getByRole('list', { name: 'Brands' })
    .getByRole('listitem')
    .filter({ hasText: name });

/** The brand's card on the Brands page. */
const card = (page: Page, name: string) =>
  page.getByRole('article').filter({ has: page.getByRole('heading', { name, exact: true }) });

describe.skipIf(chromiumMissing !== null)(
  `a live window ${chromiumMissing ?? ''}`,
  { timeout: 120_000 },
  () => {
    test('the service finishes a brand on its own: ready, then its Brand Skill, with no reload', async () => {
      const win = await openWindow({ simulator: { manualClock: true } });
      const { page, bridge } = win;
      const control = bridge.sim.control;
      const harbor = await brandId(bridge, 'Harbor & Pine');
      await page.goto(`${bridge.host.origin}/#/brands`);
      const harborCard = card(page, 'Harbor & Pine');
      await harborCard.getByText('Analyzing', { exact: true }).waitFor();
      await sidebarBrand(page, 'Harbor & Pine').getByRole('img', { name: 'Analyzing' }).waitFor();

      // The analysis ends on the service's side; the engine, which follows it, tells the window.
      await control.advance(30_000);
      await harborCard.getByText('Ready', { exact: true }).waitFor();
      await sidebarBrand(page, 'Harbor & Pine').getByRole('img', { name: 'Ready' }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Harbor & Pine is ready' }).waitFor();
      // Its Brand Skill is brought at once (the export takes the service a few seconds).
      await expect
        .poll(
          async () => {
            await control.advance(5_000);
            return harborCard.textContent();
          },
          { timeout: 20_000 },
        )
        .toMatch(/Brand Skill from/);
      const skill = await bridge.ok('skill', { brandId: harbor });
      expect(skill.installed).toBe(true);
    });

    test('the service finishes an edit on its own: the list, the tab and the sidebar count follow', async () => {
      const win = await openWindow({ simulator: { manualClock: true } });
      const { page, bridge } = win;
      const control = bridge.sim.control;
      const lumen = await brandId(bridge, 'Lumen Labs');
      await page.goto(`${bridge.host.origin}/#/brand/${lumen}/edits`);
      const edit = page.getByRole('button', { name: /Tighter typography scale/ });
      await edit.getByText('Being prepared').waitFor();
      const tab = page.getByRole('tab', { name: /Brand Edits/ });
      await expect(tab.textContent()).resolves.not.toMatch(/\d/);

      await control.advance(15_000);
      await edit.getByText('Waiting for you').waitFor({ timeout: 30_000 });
      await expect.poll(() => tab.textContent()).toMatch(/Brand Edits\s*1/);
      await expect
        .poll(() => sidebarBrand(page, 'Lumen Labs').textContent())
        .toMatch(/Lumen Labs\s*1/);
      await expectAccessible(page, 'live-edit');
    });

    test('an image edit: the spend in every figure at once, the result arrives with the dialog closed', async () => {
      const win = await openWindow({
        simulator: { manualClock: true, durations: { imageMs: 10_000 } },
      });
      const { page, bridge } = win;
      const control = bridge.sim.control;
      const northwind = await brandId(bridge, 'Northwind Coffee');
      await page.goto(`${bridge.host.origin}/#/brand/${northwind}/library`);
      const badge = page.getByRole('button', { name: 'Credits by workspace' });
      await expect.poll(() => badge.textContent()).toMatch(/120\s+credits/);
      const summary = page.locator('.library .summary');
      await summary.getByText(/^5 items/).waitFor();

      await page.getByRole('searchbox', { name: 'Search the Library' }).fill('storefront');
      await summary.getByText('1 match').waitFor();
      await page.locator('.tile').first().click();
      await page.getByRole('button', { name: 'Edit with a prompt…' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(/120 available/).waitFor();
      await dialog.getByLabel('Prompt').fill('Morning light on the storefront');
      await dialog.getByRole('button', { name: 'Edit for 1 credit' }).click();
      await dialog.getByText('Editing… this takes a little while.').waitFor();

      // The spend: the sidebar, the dialog and the Credits page say the same, at once.
      await expect.poll(() => badge.textContent()).toMatch(/119\s+credits/);
      await dialog.getByText(/119 available/).waitFor();
      await expectAccessible(page, 'image-edit-running');

      // Closing the dialog loses nothing: the engine follows the edit to its end.
      await dialog.getByRole('button', { name: 'Close' }).first().click();
      // Gone first: while it closes, its own box ("Search the Library for reference images")
      // is a second searchbox of that name.
      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('searchbox', { name: 'Search the Library', exact: true }).fill('');
      await summary.getByText(/^5 items.*1 image edit in progress/).waitFor();
      await control.advance(10_000);
      await page.getByRole('status').filter({ hasText: 'Image edit finished' }).waitFor();
      await summary.getByText(/^6 items/).waitFor();
      await expect(summary.textContent()).resolves.not.toContain('in progress');

      // Opened again (the original is still the one selected), the dialog shows the result
      // beside it.
      await page.getByRole('button', { name: 'Edit with a prompt…' }).click();
      await dialog.getByRole('img', { name: 'Edited result' }).waitFor();
      await dialog.getByRole('button', { name: 'Close' }).first().click();

      await page.goto(`${bridge.host.origin}/#/credits`);
      await page.locator('ul.wallets').getByText(/119/).first().waitFor();
      await expect.poll(() => badge.textContent()).toMatch(/119\s+credits/);
      await page.goto(`${bridge.host.origin}/#/activity`);
      await page.getByText(/Image edit finished: the new image is in Northwind Coffee/).waitFor();
    });

    test('a discard and an apply: every count of Brand Edits follows, and no newer Brand Skill is claimed', async () => {
      const win = await openWindow({ simulator: { durations: { exportMs: 50 } } });
      const { page, bridge } = win;
      const northwind = await brandId(bridge, 'Northwind Coffee');
      await page.goto(`${bridge.host.origin}/#/brands`);
      const northwindCard = card(page, 'Northwind Coffee');
      await northwindCard.getByText('2 Brand Edits to review').waitFor();
      await expect
        .poll(() => sidebarBrand(page, 'Northwind Coffee').textContent())
        .toMatch(/Northwind Coffee\s*2/);

      await page.goto(`${bridge.host.origin}/#/brand/${northwind}/edits`);
      const tab = page.getByRole('tab', { name: /Brand Edits/ });
      await expect.poll(() => tab.textContent()).toMatch(/Brand Edits\s*2/);
      // Nothing else runs (so nothing else would make the window ask again by chance).
      const footer = page.getByRole('complementary').locator('.sync');
      await expect.poll(() => footer.getAttribute('data-state'), { timeout: 30_000 }).toBe('idle');
      await page.getByRole('button', { name: /Add a seasonal accent colour/ }).click();
      const edit = page.getByRole('article');
      await edit.getByRole('button', { name: 'Discard' }).click();
      await page
        .getByRole('alertdialog')
        .getByRole('button', { name: /Discard/ })
        .click();
      await expect.poll(() => tab.textContent()).toMatch(/Brand Edits\s*1/);
      await expect
        .poll(() => sidebarBrand(page, 'Northwind Coffee').textContent())
        .toMatch(/Northwind Coffee\s*1/);

      await page.getByRole('button', { name: /Warmer primary colour/ }).click();
      await edit.getByRole('button', { name: 'Apply' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Apply edit' }).click();
      await page.getByRole('status').filter({ hasText: 'Edit applied' }).waitFor();
      await expect.poll(() => tab.textContent()).not.toMatch(/\d/);
      await expect
        .poll(() => sidebarBrand(page, 'Northwind Coffee').textContent())
        .toMatch(/^\s*Northwind Coffee\s*$/);
      const skill = await bridge.ok('skill', { brandId: northwind });
      await page.getByRole('tab', { name: 'Brand Skill' }).click();
      await page.getByText(skill.skillId.slice(0, 8), { exact: true }).waitFor();
      await page.getByRole('heading', { name: 'Colours' }).waitFor();
      expect(skill.activeSkillId).toBe(skill.skillId);
      await expect(page.getByText(/A newer Brand Skill is on the service/).count()).resolves.toBe(
        0,
      );

      await page.goto(`${bridge.host.origin}/#/brands`);
      await expect.poll(() => northwindCard.textContent()).not.toMatch(/Brand Edits? to review/);
    });

    test('an upload: the file row, the brand card, the footer and the Library agree', async () => {
      const win = await openWindow();
      const { page, bridge } = win;
      const northwind = await brandId(bridge, 'Northwind Coffee');
      await page.goto(`${bridge.host.origin}/#/brand/${northwind}/files`);
      const footer = page.getByRole('complementary').locator('.sync');
      await expect.poll(() => footer.getAttribute('data-state'), { timeout: 30_000 }).toBe('idle');
      const png = [...makePng({ width: 11, height: 7, seed: 5 })];
      await page.evaluate(`(() => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(${JSON.stringify(png)})], 'live upload.png', { type: 'image/png' }));
        const target = document.querySelector('[aria-label$="drop files here to add them to the brand folder"]');
        if (target === null) throw new Error('no drop target');
        for (const type of ['dragenter', 'dragover', 'drop']) {
          target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
        }
      })()`);
      const row = page.locator('tr', { hasText: 'live upload.png' });
      await expect.poll(() => row.getAttribute('data-state'), { timeout: 20_000 }).toBe('uploaded');
      // Nothing waits any more: the footer says so with its glyph, and the Activity badge agrees.
      await expect.poll(() => footer.getAttribute('data-state'), { timeout: 20_000 }).toBe('idle');
      await expect(footer.textContent()).resolves.toContain('Up to date');
      await page.getByRole('tab', { name: 'Library' }).click();
      await page
        .locator('.library .summary')
        .getByText(/^6 items/)
        .waitFor({ timeout: 20_000 });
      await page.goto(`${bridge.host.origin}/#/brands`);
      const northwindCard = card(page, 'Northwind Coffee');
      await northwindCard.getByText(/Brand Skill from/).waitFor();
      await expect(northwindCard.textContent()).resolves.not.toMatch(/upload waiting/);
      const onDisk = path.join(bridge.root, 'Northwind Coffee', 'live upload.png');
      await expect(readFile(onDisk)).resolves.toEqual(Buffer.from(png));
    });

    test('a delete: the brand leaves every list; one deleted elsewhere waits under "Removed on the service" until removed', async () => {
      const win = await openWindow();
      const { page, bridge } = win;
      const lumen = await brandId(bridge, 'Lumen Labs');
      await page.goto(
        `${bridge.host.origin}/#/brand/${await brandId(bridge, 'Old Orchard')}/library`,
      );
      await sidebarBrand(page, 'Old Orchard').waitFor();
      await page.getByRole('button', { name: 'More actions for this brand' }).click();
      await page.getByRole('menuitem', { name: 'Delete brand…' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete brand' }).click();
      await page.getByRole('heading', { level: 1, name: 'Brands' }).waitFor();
      await expect.poll(() => sidebarBrand(page, 'Old Orchard').count()).toBe(0);
      await expect.poll(() => card(page, 'Old Orchard').count()).toBe(0);

      // Deleted elsewhere (another client, the same account): the next listing learns it.
      const gone = await fetch(`${bridge.sim.baseUrl}/brands/${lumen}`, {
        method: 'DELETE',
        headers: { 'x-api-key': KEY },
      });
      expect(gone.status).toBe(200);
      await page.getByRole('button', { name: 'Sync now' }).click();
      const removed = page.getByRole('region', { name: 'Removed on the service' });
      await removed.first().waitFor({ timeout: 20_000 });
      await expect.poll(() => sidebarBrand(page, 'Lumen Labs').count()).toBe(0);
      await expectAccessible(page, 'removed-brands');
      // Its page offers to remove it, not to delete it again.
      await removed.first().getByRole('link', { name: 'Lumen Labs' }).click();
      await page.getByRole('button', { name: 'More actions for this brand' }).click();
      await page.getByRole('menuitem', { name: 'Remove from Brand Sync' }).waitFor();
      await expect(page.getByRole('menuitem', { name: 'Delete brand…' }).count()).resolves.toBe(0);
      await page.keyboard.press('Escape');
      await page
        .getByRole('complementary')
        .getByRole('button', { name: 'Remove Lumen Labs' })
        .click();
      await page.getByRole('status').filter({ hasText: 'Lumen Labs was removed' }).waitFor();
      await expect.poll(() => removed.count()).toBe(0);
      await expect.poll(() => card(page, 'Lumen Labs').count()).toBe(0);
    });

    test('the service goes away and comes back: the window says so within seconds of each', async () => {
      const win = await openWindow();
      const { page, bridge } = win;
      await page.goto(`${bridge.host.origin}/#/brands`);
      const footer = page.getByRole('complementary').locator('.sync');
      await expect.poll(() => footer.getAttribute('data-state'), { timeout: 30_000 }).toBe('idle');

      bridge.sim.control.setFaults('/v1/*:reset-before=1');
      await page.getByRole('button', { name: 'Sync now' }).click();
      await expect
        .poll(() => footer.getAttribute('data-state'), { timeout: 20_000 })
        .toBe('offline');
      await expect(footer.textContent()).resolves.toContain('Offline since');
      const banner = page
        .getByRole('status')
        .filter({ hasText: 'Everything on this computer still shows' });
      await banner.waitFor();

      bridge.sim.control.clearFaults();
      await expect
        .poll(() => footer.getAttribute('data-state'), { timeout: 15_000 })
        .not.toBe('offline');
      await expect.poll(() => banner.count()).toBe(0);
      await expect.poll(() => footer.getAttribute('data-state'), { timeout: 30_000 }).toBe('idle');
    });

    test('an item removed from the Library on the service leaves the shown Library in place, with nothing read again', async () => {
      const win = await openWindow();
      const { page, bridge } = win;
      const lumen = await brandId(bridge, 'Lumen Labs');
      await page.goto(`${bridge.host.origin}/#/brand/${lumen}/library`);
      const summary = page.locator('.library .summary');
      await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toContain('240 items');
      await page.locator('.tile').first().click();
      const details = page.getByRole('complementary', { name: 'Item details' });
      await details.waitFor();
      const [newest] = (await bridge.ok('library', { brandId: lumen, limit: 1 })).items as {
        id: string;
      }[];
      const reads: number[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/library'))
          reads.push((request.postDataJSON() as { limit?: number }).limit ?? 0);
      });
      bridge.sim.control.unlistLibraryItem(lumen, newest?.id as string);
      // The pass that finds removals reads the whole Library (daily by default): asked for now.
      const engine = bridge.app.requireEngine();
      engine.queue.enqueue(
        'library.sync',
        { brandId: lumen, mode: 'full' },
        { key: `library.sync:${lumen}`, brandId: lumen },
      );
      await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toContain('239 items');
      // The selected item was the one removed: its details close.
      await details.waitFor({ state: 'detached' });
      // Only the counts were asked for again (one item's page), not the loaded pages.
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.every((limit) => limit === 1)).toBe(true);
    });
  },
);

// The window, part 1, in Debian's Chromium over the headless host and the simulator: first
// run (a wrong key, then a good one), the brands and credits, a brand created to ready and to
// failed, the Library with its filters, search and details, the Brand Skill with swatches and
// markdown (raw HTML shown as text), the Files tab following a file from the disk to uploaded,
// and offline (the simulator stopped: everything mirrored still shows, with its age). Each
// screen passes axe (no serious or critical violation, light and dark) and is photographed.
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { KEY } from '../bridge/harness.ts';
import { makePng } from '../folder-parts/fixtures.ts';
import {
  brandId,
  chromiumMissing,
  expectAccessible,
  openWindow,
  screenshot,
} from './window-harness.ts';

describe.skipIf(chromiumMissing !== null)(
  `window part 1 ${chromiumMissing ?? ''}`,
  { timeout: 90_000 },
  () => {
    test('first run: a wrong key is refused in plain words, a good key opens the brands', async () => {
      const win = await openWindow({ signedIn: false });
      const { page, bridge } = win;
      await page.getByRole('heading', { name: 'Welcome to Brand Sync' }).waitFor();
      await expectAccessible(page, 'sign-in');
      await screenshot(page, 'sign-in', { dark: true });

      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.locator('#key-error').textContent()).resolves.toBe('Paste your API key.');

      await page.getByRole('textbox', { name: 'API key' }).fill('sk-wrong-key-0000');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const refused = page.locator('#key-error');
      await refused.waitFor();
      const message = (await refused.textContent()) ?? '';
      expect(message).toMatch(/key/i);
      expect(message).not.toContain('sk-wrong-key-0000');
      await screenshot(page, 'sign-in-refused');

      await page.getByRole('textbox', { name: 'API key' }).fill(KEY);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Brands' }).waitFor();
      await page.getByRole('link', { name: 'Northwind Coffee' }).first().waitFor();
      // The key went once, into the key store, and is in no answer the page received.
      expect(bridge.app.session.source).toBe('keychain');
      expect(await page.content()).not.toContain(KEY);
    });

    test('brands and credits; a brand created to ready, another to failed, errors beside their field', async () => {
      const win = await openWindow({ simulator: { durations: { brandAnalysisMs: 1500 } } });
      const { page } = win;
      await page.getByRole('heading', { name: 'Northwind Coffee' }).waitFor();
      // The balance arrives by its own query: wait for it rather than race the brands.
      await expect
        .poll(() => page.getByRole('button', { name: 'Credits by workspace' }).textContent())
        .toContain('120');
      const failed = page.getByRole('article', { name: 'Old Orchard' });
      await expect(failed.textContent()).resolves.toContain('SCRAPE_FAILED');
      await expectAccessible(page, 'brands');
      await screenshot(page, 'brands', { dark: true });

      // Team workspaces are one click away.
      await page.getByRole('button', { name: 'Credits by workspace' }).click();
      await page.getByRole('menuitem', { name: /Studio North\s+480/ }).waitFor();
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'New brand' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Create brand' }).click();
      await dialog.getByText('Give at least one source').waitFor();
      await dialog.getByLabel('Website').fill('ftp://not-http.example');
      await dialog.getByRole('button', { name: 'Create brand' }).click();
      await expect(dialog.locator('#nb-website-msg').textContent()).resolves.toMatch(/http/);
      await expectAccessible(page, 'create-brand');
      await screenshot(page, 'create-brand');

      await dialog.getByLabel('Website').fill('https://fresh-roast.example.com');
      await dialog.getByRole('button', { name: 'Create brand' }).click();
      await dialog.getByText('Creating your brand').waitFor();
      await dialog.getByText('is ready').waitFor({ timeout: 20_000 });
      await dialog.getByRole('button', { name: 'Open the brand' }).click();
      await page.getByRole('tab', { name: 'Library' }).waitFor();

      await page.getByRole('link', { name: 'All brands' }).click();
      await page.getByRole('button', { name: 'New brand' }).click();
      await dialog.getByLabel('Website').fill('https://broken.example.com/fail-SCRAPE_FAILED');
      await dialog.getByRole('button', { name: 'Create brand' }).click();
      await dialog.getByText('could not be created').waitFor({ timeout: 20_000 });
      await screenshot(page, 'create-brand-failed');
      await page.keyboard.press('Escape');

      // A very long name ellipsises in the sidebar and the page header; nothing scrolls
      // sideways, and opening it keeps the other brands in view.
      const long =
        'The Extraordinarily Long-Named Heritage Coffee Roasters & Bakery Collective of Northern Europe';
      const seeded = await win.bridge.sim.control.seedBrand({ name: long, status: 'ready' });
      await win.bridge.ok('syncNow');
      const sidebarLink = page.locator('.sidebar').getByRole('link', { name: long });
      await sidebarLink.waitFor({ timeout: 15_000 });
      await sidebarLink.click();
      await page.getByRole('heading', { name: long }).waitFor();
      const overflow = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      const list = await overflow('.sidebar .brands');
      expect(list.scroll).toBeLessThanOrEqual(list.client);
      const name = await overflow(`.sidebar a[href^="#/brand/${seeded.id}/"] .name`);
      expect(name.scroll).toBeGreaterThan(name.client);
      const other = await page
        .locator('.sidebar')
        .getByRole('link', { name: 'Northwind Coffee' })
        .boundingBox();
      expect(other?.x).toBeGreaterThanOrEqual(0);
    });

    test('a brand: Library filters, search and details; Brand Skill swatches and markdown; Files from disk to uploaded; offline', async () => {
      const win = await openWindow();
      const { page, bridge } = win;
      const lumen = await brandId(bridge, 'Lumen Labs');
      const northwind = await brandId(bridge, 'Northwind Coffee');

      // Library of a big brand: counts, a type filter.
      await page.getByRole('link', { name: 'Lumen Labs' }).first().click();
      const summary = page.locator('.library .summary');
      await expect.poll(() => summary.textContent()).toContain('240 items');
      const page1 = await bridge.ok('library', { brandId: lumen, limit: 1 });
      const images = (page1.types as { type: string; count: number }[]).find(
        (t) => t.type === 'image',
      )?.count;
      expect(images).toBeGreaterThan(0);
      expect(images).toBeLessThan(240);
      await page.getByRole('button', { name: /^Images \d+/ }).click();
      await expect.poll(() => summary.textContent()).toContain(`${images} items`);
      // Only what the screen shows is in the DOM.
      expect(await page.locator('.tile').count()).toBeLessThan(120);
      await expectAccessible(page, 'library');
      await screenshot(page, 'library', { dark: true });

      // Search, and the details of one item.
      await page.goto(`${bridge.host.origin}/#/brand/${northwind}/library`);
      await page.getByRole('searchbox', { name: 'Search the Library' }).fill('latte');
      await expect.poll(() => summary.textContent()).toMatch(/1 match/);
      await page.locator('.tile').first().click();
      const details = page.getByRole('complementary', { name: 'Item details' });
      await expect(details.textContent()).resolves.toContain('Latte art close-up');
      await expect(details.textContent()).resolves.toContain('Dimensions');
      await page.getByRole('searchbox', { name: 'Search the Library' }).fill('no such thing');
      await page.getByRole('heading', { name: 'Nothing matches' }).waitFor();

      // Brand Skill: version facts, swatches with hex, type specimens, markdown without raw HTML.
      await page.getByRole('tab', { name: 'Brand Skill' }).click();
      await page.getByRole('heading', { name: 'Colours' }).waitFor();
      const skill = await bridge.ok('skill', { brandId: northwind });
      const first = skill.profile.colors[0] as { hex: string; name: string | null };
      const swatch = page.getByRole('button', { name: new RegExp(`Copy ${first.hex}`, 'i') });
      await swatch.waitFor();
      // The colour is a block of the colour itself, not a pill (a shared class once shrank it).
      const block = swatch.locator(':scope > span').first();
      const box = await block.boundingBox();
      expect(box?.height).toBeGreaterThanOrEqual(56);
      const background = await block.evaluate(
        (el) =>
          (
            globalThis as unknown as {
              getComputedStyle(e: unknown): { backgroundColor: string };
            }
          ).getComputedStyle(el).backgroundColor,
      );
      expect(background).toBe(rgbOf(first.hex));
      await page.getByRole('heading', { name: 'Typography' }).waitFor();
      await expectAccessible(page, 'brand-skill');
      await screenshot(page, 'brand-skill', { dark: true });
      await appendFile(
        path.join(skill.path, 'SKILL.md'),
        '\n\n<img src=x onerror="alert(1)"> **bold**\n',
      );
      await page.getByRole('button', { name: 'SKILL.md' }).click();
      const article = page.locator('article.markdown');
      await article.locator('strong', { hasText: 'bold' }).waitFor();
      await expect(article.textContent()).resolves.toContain('<img src=x onerror="alert(1)">');
      expect(await article.locator('img[src="x"]').count()).toBe(0);
      await screenshot(page, 'brand-skill-markdown');

      // Files: a file written into the folder shows, then uploads, with no reload.
      await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 42));
      await page.getByRole('tab', { name: 'Files' }).click();
      const folder = path.join(bridge.root, 'Northwind Coffee');
      await mkdir(folder, { recursive: true });
      await writeFile(
        path.join(folder, 'autumn-hero.png'),
        makePng({ width: 8, height: 8, seed: 7 }),
      );
      const row = page.locator('tr', { hasText: 'autumn-hero.png' });
      await row.waitFor({ timeout: 15_000 });
      await expect.poll(() => row.getAttribute('data-state'), { timeout: 20_000 }).toBe('uploaded');
      await expect(row.textContent()).resolves.toContain('Uploaded in the Library');
      // Where it went in words; its ID only on hover.
      const uploaded = (await bridge.ok('files', { brandId: northwind })).files.find(
        (f: { path: string }) => f.path === 'autumn-hero.png',
      ) as { imageId: string };
      await expect(row.textContent()).resolves.not.toContain(uploaded.imageId);
      await expect(row.getByTitle(`Image ${uploaded.imageId}`).count()).resolves.toBe(1);
      expect(await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker)).toBe(
        42,
      );
      await expectAccessible(page, 'files');
      await screenshot(page, 'files', { dark: true });

      // Offline: the service goes away; the mirror still shows, with its age.
      await bridge.sim.close();
      await page.getByRole('link', { name: 'Brands', exact: true }).click();
      await page.getByRole('button', { name: 'Sync now' }).click();
      await page
        .getByText(/Offline since/)
        .first()
        .waitFor({ timeout: 20_000 });
      await page.goto(`${bridge.host.origin}/#/brand/${lumen}/library`);
      // The filter chosen before is kept for the brand.
      await page.getByRole('button', { name: /^All \d+/ }).click();
      await expect.poll(() => summary.textContent()).toContain('240 items');
      await expect(summary.textContent()).resolves.toMatch(/mirrored (just now|\d+ min ago)/);
      await page.getByRole('tab', { name: 'Brand Skill' }).click();
      await page.getByRole('heading', { name: 'Colours' }).waitFor();
      await expectAccessible(page, 'offline');
      await screenshot(page, 'offline', { dark: true });
    });

    test('keyboard and drop: a brand opened and its tabs moved by keys, files dropped onto the window, a toast dismissed, a brand deleted', async () => {
      const win = await openWindow();
      const { page, bridge } = win;
      await page.getByRole('heading', { name: 'Northwind Coffee' }).waitFor();

      // Keyboard only: a visible focus, Enter opens, arrows move between tabs.
      await page.getByRole('link', { name: 'Northwind Coffee' }).first().focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Shift+Tab');
      // The focused element's outline, read in the page (this file is typed for Node).
      const outline = await page.evaluate(() => {
        const g = globalThis as unknown as {
          document: { activeElement: unknown };
          getComputedStyle(element: unknown): { outlineStyle: string };
        };
        return g.getComputedStyle(g.document.activeElement).outlineStyle;
      });
      expect(outline).not.toBe('none');
      await page.keyboard.press('Enter');
      const library = page.getByRole('tab', { name: 'Library' });
      await expect.poll(() => library.getAttribute('aria-selected')).toBe('true');
      await library.focus();
      await page.keyboard.press('ArrowRight');
      await expect
        .poll(() => page.getByRole('tab', { name: 'Brand Skill' }).getAttribute('aria-selected'))
        .toBe('true');
      await page.getByRole('heading', { name: 'Colours' }).waitFor();

      // Files dropped onto the window land in the brand folder, then upload.
      const png = [...makePng({ width: 9, height: 9, seed: 21 })];
      // A real drag carries a DataTransfer of File objects: the same, dispatched in the page
      // (as source text: this file is typed for Node, not the DOM).
      await page.evaluate(`(() => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(${JSON.stringify(png)})], 'dropped on window.png', { type: 'image/png' }));
        const target = document.querySelector('[aria-label$="drop files here to add them to the brand folder"]');
        if (target === null) throw new Error('no drop target');
        for (const type of ['dragenter', 'dragover', 'drop']) {
          target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
        }
      })()`);
      const toast = page
        .getByRole('status')
        .filter({ hasText: '1 file added to Northwind Coffee' });
      await toast.waitFor();
      await expect
        .poll(() => page.getByRole('tab', { name: 'Files' }).getAttribute('aria-selected'))
        .toBe('true');
      const row = page.locator('tr', { hasText: 'dropped on window.png' });
      await expect.poll(() => row.getAttribute('data-state'), { timeout: 20_000 }).toBe('uploaded');
      const folder = path.join(bridge.root, 'Northwind Coffee');
      await expect(readFile(path.join(folder, 'dropped on window.png'))).resolves.toEqual(
        Buffer.from(png),
      );

      // A toast goes with Escape.
      await toast.getByRole('button', { name: 'Dismiss notification' }).focus();
      await page.keyboard.press('Escape');
      await expect.poll(() => toast.count()).toBe(0);

      // Delete, after a confirmation that says what stays on disk.
      await page.getByRole('button', { name: 'More actions for this brand' }).click();
      await page.getByRole('menuitem', { name: 'Delete brand…' }).click();
      const confirm = page.getByRole('alertdialog');
      await expect(confirm.textContent()).resolves.toContain('Nothing is deleted on this computer');
      await expectAccessible(page, 'delete-brand');
      await screenshot(page, 'delete-brand');
      await confirm.getByRole('button', { name: 'Delete brand' }).click();
      await page.getByRole('status').filter({ hasText: 'Northwind Coffee was deleted' }).waitFor();
      await page.getByRole('heading', { level: 1, name: 'Brands' }).waitFor();
      await expect(readFile(path.join(folder, 'dropped on window.png'))).resolves.toEqual(
        Buffer.from(png),
      );
    });
  },
);

/** `#RRGGBB` as the browser computes it (`rgb(r, g, b)`). */
function rgbOf(hex: string): string {
  const n = Number.parseInt(hex.slice(1, 7), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

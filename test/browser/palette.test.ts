// The command palette, dragging files out and the Library of every brand, in Debian's Chromium
// over the headless host and the simulator's demo data: Ctrl+K from anywhere, keyboard alone
// (type, arrows, Enter, Escape), a colour's Enter copying its hex, a brand, a Library item and
// an action chosen, and the same answers with the service gone (from the local mirror). A
// dragged item, logo or Brand Skill file carries `DownloadURL` with its real name and type and
// an address the host serves that file at. Every screen passes axe in light and dark.
import type { JSHandle, Locator, Page } from '@playwright/test';
import { describe, expect, test } from 'vitest';
import {
  brandId,
  chromiumMissing,
  expectAccessible,
  openWindow,
  screenshot,
} from './window-harness.ts';
import type { Bridge } from '../bridge/harness.ts';

/** The few DOM names the in-page checks use (this file is typed for Node, without the DOM). */
interface InPage {
  document: { activeElement: { getAttribute(name: string): string | null } | null };
  navigator: {
    clipboard: {
      readText(): Promise<string>;
      read(): Promise<{ types: readonly string[] }[]>;
    };
  };
  DataTransfer: new () => { getData(type: string): string };
}

async function openPalette(page: Page): Promise<Locator> {
  await page.keyboard.press('Control+k');
  const input = page.getByRole('combobox', { name: 'Find anything' });
  await input.waitFor();
  // Focus goes to the field: the keyboard alone from here.
  await page.waitForFunction(
    () =>
      (globalThis as unknown as InPage).document.activeElement?.getAttribute('aria-label') ===
      'Find anything',
  );
  return input;
}

/** Types `text` key by key and waits until the palette shows the answer for all of it. */
async function type(page: Page, text: string): Promise<void> {
  await page.keyboard.type(text);
  await page.locator(`.palette[data-answered="${text}"]`).waitFor();
}

async function selectedOption(page: Page): Promise<string> {
  // The palette's own choice (a Library grid behind it is a listbox with a selection too).
  return (await page.locator('.palette [role="option"][aria-selected="true"]').textContent()) ?? '';
}

/** Northwind Coffee's Brand Skill lies on disk (its colours and files are found from there). */
async function skillOnDisk(bridge: Bridge, id: string) {
  await expect
    .poll(async () => (await bridge.ok('skill', { brandId: id })).installed, { timeout: 30_000 })
    .toBe(true);
  return bridge.ok('skill', { brandId: id });
}

/** What a dragstart on `target` puts in the drag's data, read back as Chromium would. */
async function dragData(
  page: Page,
  target: Locator,
): Promise<{ downloadUrl: string; uriList: string; text: string }> {
  const transfer: JSHandle = await page.evaluateHandle(
    () => new (globalThis as unknown as InPage).DataTransfer(),
  );
  await target.dispatchEvent('dragstart', { dataTransfer: transfer });
  return transfer.evaluate((dt) => {
    const data = dt as { getData(type: string): string };
    return {
      downloadUrl: data.getData('DownloadURL'),
      uriList: data.getData('text/uri-list'),
      text: data.getData('text/plain'),
    };
  });
}

/** `type:name:url`, and the URL answers that file, of that type, to the window's session. */
async function expectServedFile(
  bridge: Bridge,
  downloadUrl: string,
  want: { type: string; name: string },
): Promise<Buffer> {
  const match = /^([^:]+):([^:]+):(http:\/\/.+)$/.exec(downloadUrl);
  expect(match, downloadUrl).not.toBeNull();
  const [, mime, name, url] = match as unknown as [string, string, string, string];
  expect(mime).toBe(want.type);
  expect(name).toBe(want.name);
  expect(new URL(url).origin).toBe(bridge.host.origin);
  const response = await fetch(url, { headers: { cookie: bridge.cookie } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain(want.type);
  return Buffer.from(await response.arrayBuffer());
}

describe.skipIf(chromiumMissing !== null)(
  `palette ${chromiumMissing ?? ''}`,
  { timeout: 120_000 },
  () => {
    test('Ctrl+K from anywhere, keyboard alone: a colour copied, a brand, a Library item and an action chosen; offline too', async () => {
      const win = await openWindow();
      const { page, bridge } = win;
      await page
        .context()
        .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: bridge.host.origin });
      const northwind = await brandId(bridge, 'Northwind Coffee');
      const skill = await skillOnDisk(bridge, northwind);
      const colour = skill.profile.colors.find((c: { name: string | null }) => c.name !== null) as {
        hex: string;
        name: string;
      };

      // From another screen (Settings), with the focus anywhere.
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      await openPalette(page);
      await page.getByText(/Type a brand, a file name/).waitFor();
      // The colour by the first letters of its name, accents and case aside.
      const typed = colour.name.slice(0, 4).toUpperCase();
      await type(page, typed);
      // Every brand's colours: Northwind Coffee's is among them, with its hex.
      const option = page.getByRole('option', {
        name: new RegExp(`${colour.name}.*Northwind Coffee`),
      });
      await option.waitFor();
      expect(await selectedOption(page)).toContain(colour.name);
      expect(await option.textContent()).toContain(colour.hex.toUpperCase());
      await expectAccessible(page, 'palette-colour');
      await page.keyboard.press('Enter');
      await page
        .getByRole('status')
        .filter({ hasText: `Copied ${colour.hex.toUpperCase()}` })
        .waitFor();
      expect(
        await page.evaluate(() => (globalThis as unknown as InPage).navigator.clipboard.readText()),
      ).toBe(colour.hex);
      await page.getByRole('combobox', { name: 'Find anything' }).waitFor({ state: 'detached' });

      // One letter finds something of every kind the engine has for it (the demo's colours
      // follow its brands' names: none of them may begin with this letter).
      const found = await bridge.ok('search', { text: 'c' });
      const kinds: [string, unknown[]][] = [
        ['Brands', found.brands as unknown[]],
        ['Colours', found.colors as unknown[]],
        ['Brand Skill files', found.skillFiles as unknown[]],
        ['Library', found.items as unknown[]],
      ];
      const headings = ['Actions', ...kinds.filter(([, list]) => list.length > 0).map(([h]) => h)];
      expect(headings.length).toBeGreaterThanOrEqual(4);
      await openPalette(page);
      await type(page, 'c');
      for (const heading of headings) {
        await page.locator('.palette-heading', { hasText: heading }).first().waitFor();
      }
      await expectAccessible(page, 'palette');
      await screenshot(page, 'palette');
      await page.keyboard.press('Escape');

      // A brand: its page opens.
      await openPalette(page);
      await type(page, 'northw');
      expect(await selectedOption(page)).toContain('Northwind Coffee');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Northwind Coffee', level: 1 }).waitFor();
      expect(new URL(page.url()).hash).toBe(`#/brand/${northwind}/library`);

      // A Library item of another brand's, by a word of its description: arrows reach it, and
      // Enter opens it in its brand's Library with its details.
      await page.getByRole('link', { name: 'Activity' }).click();
      await openPalette(page);
      await type(page, 'latte art');
      await page.getByRole('option', { name: /Latte art close-up\.png/ }).waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowUp');
      expect(await selectedOption(page)).toContain('Latte art close-up.png');
      await page.keyboard.press('Enter');
      const details = page.getByRole('complementary', { name: 'Item details' });
      await details.getByText('Latte art close-up.png').waitFor();
      expect(new URL(page.url()).hash).toBe(`#/brand/${northwind}/library`);

      // A Brand Skill file, by words of its path: shown in its brand's Brand Skill tab.
      await openPalette(page);
      await type(page, 'visual colors');
      expect(await selectedOption(page)).toContain('colors.md');
      await page.keyboard.press('Enter');
      await page
        .getByRole('region', { name: 'Brand Skill file' })
        .getByRole('heading', { name: 'Colours' })
        .waitFor();
      expect(decodeURIComponent(new URL(page.url()).hash)).toMatch(
        /\/skill\/guidelines\/visual\/colors\.md$/,
      );

      // An action, by a word it answers to: pause, then resume.
      await openPalette(page);
      await type(page, 'pause');
      expect(await selectedOption(page)).toContain('Pause syncing');
      await page.keyboard.press('Enter');
      await page.getByText('Paused by you').first().waitFor();
      await openPalette(page);
      await type(page, 'resu');
      expect(await selectedOption(page)).toContain('Resume syncing');
      await page.keyboard.press('Enter');
      await page.getByText('Paused by you').first().waitFor({ state: 'detached' });

      // The other actions: a new brand's dialog, sync now, the folder; sign out is offered.
      await openPalette(page);
      await type(page, 'new');
      expect(await selectedOption(page)).toContain('New brand…');
      await page.keyboard.press('Enter');
      await page.getByRole('dialog').getByRole('heading', { name: 'New brand' }).waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('heading', { name: 'New brand' }).waitFor({ state: 'detached' });
      await openPalette(page);
      await type(page, 'sync now');
      expect(await selectedOption(page)).toContain('Sync now');
      await page.keyboard.press('Enter');
      await page
        .getByRole('status')
        .filter({ hasText: 'Checking the service for changes' })
        .waitFor();
      await openPalette(page);
      await type(page, 'open folder');
      expect(await selectedOption(page)).toContain('Open the Brand Sync folder');
      const opened = page.waitForResponse((r) => r.url().endsWith('/api/openFolder'));
      await page.keyboard.press('Enter');
      // The engine is asked to open the sync root (how the window says it could not is its own).
      expect(((await (await opened).json()) as { data: { path: string } }).data.path).toBe(
        bridge.root,
      );
      await openPalette(page);
      await type(page, 'sign');
      expect(await selectedOption(page)).toContain('Sign out');
      await page.keyboard.press('Escape');

      // Escape closes; nothing typed stays for the next time.
      await openPalette(page);
      await type(page, 'zzzz qqqq');
      await page.getByText('Nothing here matches “zzzz qqqq”.').waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('combobox', { name: 'Find anything' }).waitFor({ state: 'detached' });
      const again = await openPalette(page);
      expect(await again.inputValue()).toBe('');
      await page.keyboard.press('Escape');

      // The service gone: the same answers, from the mirror and the disk.
      await bridge.sim.close();
      await openPalette(page);
      await type(page, 'storefront');
      await page.getByRole('option', { name: /Storefront at dawn/ }).waitFor();
      await page.keyboard.press('Escape');
      await openPalette(page);
      await type(page, colour.name.toLowerCase());
      await page
        .getByRole('option', { name: new RegExp(`${colour.name}.*Northwind Coffee`) })
        .waitFor();
    });

    test('dragged out, a Library item, the logo and a Brand Skill file carry their name, type and served address; copy puts the image itself', async () => {
      const win = await openWindow();
      const { page, bridge } = win;
      await page
        .context()
        .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: bridge.host.origin });
      const northwind = await brandId(bridge, 'Northwind Coffee');
      await page.goto(`${bridge.host.origin}/#/brand/${northwind}/library`);
      const tile = page.locator('.tile[data-name="Latte art close-up.png"]');
      await tile.waitFor();
      expect(await tile.getAttribute('draggable')).toBe('true');
      const item = (await bridge.ok('library', { brandId: northwind, search: 'latte' }))
        .items[0] as { id: string; mimeType: string };
      const fromTile = await dragData(page, tile);
      expect(fromTile.downloadUrl).toBe(
        `${item.mimeType}:Latte art close-up.png:${bridge.host.origin}/files/media/${item.id}`,
      );
      expect(fromTile.uriList).toBe(`${bridge.host.origin}/files/media/${item.id}`);
      expect(fromTile.text).toBe('Latte art close-up.png');
      const bytes = await expectServedFile(bridge, fromTile.downloadUrl, {
        type: item.mimeType,
        name: 'Latte art close-up.png',
      });
      expect(bytes.length).toBeGreaterThan(0);

      // The details' preview drags the same file; Copy image puts a PNG on the clipboard.
      await tile.click();
      const details = page.getByRole('complementary', { name: 'Item details' });
      const preview = details.locator('.preview');
      expect((await dragData(page, preview)).downloadUrl).toBe(fromTile.downloadUrl);
      await details.getByRole('button', { name: 'Copy image' }).click();
      await page.getByRole('status').filter({ hasText: 'Image copied' }).waitFor();
      const types = await page.evaluate(async () =>
        (await (globalThis as unknown as InPage).navigator.clipboard.read()).flatMap((i) => [
          ...i.types,
        ]),
      );
      expect(types).toContain('image/png');

      // The Brand Skill: the logo and a file, each dragged as itself.
      const skill = await skillOnDisk(bridge, northwind);
      await page.getByRole('tab', { name: 'Brand Skill' }).click();
      const logo = page.locator('[data-drag="logo"]');
      await logo.waitFor();
      const logoPath = skill.profile.logo.path as string;
      const logoName = logoPath.split('/').at(-1) as string;
      const fromLogo = await dragData(page, logo);
      await expectServedFile(bridge, fromLogo.downloadUrl, {
        type: logoName.endsWith('.svg') ? 'image/svg+xml' : 'image/png',
        name: logoName,
      });
      const markdown = (skill.tree as { path: string; kind: string }[]).find(
        (e) => e.kind === 'file' && e.path.endsWith('.md'),
      ) as { path: string };
      const fileRow = page.locator(`[data-drag="skill-file"][data-path="${markdown.path}"]`);
      const fromFile = await dragData(page, fileRow);
      const served = await expectServedFile(bridge, fromFile.downloadUrl, {
        type: 'text/markdown',
        name: markdown.path.split('/').at(-1) as string,
      });
      expect(served.toString('utf8')).toMatch(/^#/m);
    });

    test('the Library of every brand: one virtual grid with the brand of each item, filters, search and details', async () => {
      const win = await openWindow();
      const { page, bridge } = win;
      await page.getByRole('link', { name: 'Library', exact: true }).click();
      await page.getByRole('heading', { name: 'Library', level: 1 }).waitFor();
      const summary = page.locator('.library .summary');
      // Northwind's 5 and Lumen's 240, together.
      await expect.poll(() => summary.textContent(), { timeout: 20_000 }).toContain('245 items');
      await page.locator('.tile .brand-label').first().waitFor();
      const labels = await page.locator('.tile .brand-label').allTextContents();
      expect(new Set(labels).size).toBeGreaterThanOrEqual(1);
      expect(await page.locator('.tile').count()).toBeLessThan(120);
      await page.getByRole('button', { name: /^Videos \d+/ }).click();
      const videos = (await bridge.ok('library', { type: 'video', limit: 1 })) as {
        total: number;
      };
      await expect.poll(() => summary.textContent()).toContain(`${videos.total} item`);
      await page.getByRole('button', { name: /^All \d+/ }).click();
      await page.getByRole('searchbox', { name: 'Search the Library' }).fill('latte');
      await expect.poll(() => summary.textContent()).toMatch(/1 match/);
      await page.locator('.tile').first().click();
      const details = page.getByRole('complementary', { name: 'Item details' });
      await details.getByText('Northwind Coffee').waitFor();
      await page.getByRole('searchbox', { name: 'Search the Library' }).fill('');
      await expect.poll(() => summary.textContent()).toContain('245 items');
      await expectAccessible(page, 'library-all');
      await screenshot(page, 'library-all');

      // Bad input to the queries behind these screens is refused in words.
      const long = await bridge.call('search', { text: 'x'.repeat(201) });
      expect(long.status).toBe(400);
      expect(long.json.error.message).toMatch(/text is at most 200 characters/);
      const limit = await bridge.call('search', { text: 'latte', limit: 0 });
      expect(limit.json.error.code).toBe('VALIDATION_ERROR');
      const unknown = await bridge.call('library', { brandId: 'no-such-brand' });
      expect(unknown.json.error.code).toBe('BRAND_UNKNOWN');
    });
  },
);

// Issue 25 in Debian's Chromium over the headless host and the simulator: the Activity page as
// an inbox ("Needs you" with the Brand Edits waiting and a failure with its Retry, "Now", and
// "Done" in words with housekeeping folded into one line; the sidebar badge counts only what
// needs the person), and the brand cards (the logo is the card's picture, a monogram without
// one, the folder named once).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { describe, expect, test } from 'vitest';
import type { Bridge } from '../bridge/harness.ts';
import { makePng } from '../folder-parts/fixtures.ts';
import {
  brandId,
  chromiumMissing,
  expectAccessible,
  openWindow,
  screenshot,
} from './window-harness.ts';

/** The Activity entry's badge in the sidebar (empty when nothing needs the person). */
async function badge(page: Page): Promise<string> {
  const link = page.getByRole('complementary').getByRole('link', { name: /^Activity/ });
  return ((await link.locator('.count').allTextContents())[0] ?? '').replace(/\D/g, '');
}

/**
 * What the engine says needs the person: edits waiting and failures. The demo's service may
 * finish preparing another edit at any moment, so the badge is held to this, not a constant.
 */
async function owed(bridge: Bridge): Promise<{ edits: number; failed: number }> {
  const doc = await bridge.ok('activity');
  return {
    edits: (doc.editsWaiting as { count: number }[]).reduce((n, e) => n + e.count, 0),
    failed: (doc.failed as unknown[]).length,
  };
}

/** Polls until the badge shows the engine's count; returns that count. */
async function badgeAgrees(page: Page, bridge: Bridge): Promise<{ edits: number; failed: number }> {
  let last = { edits: 0, failed: 0 };
  await expect
    .poll(
      async () => {
        last = await owed(bridge);
        const n = last.edits + last.failed;
        return (await badge(page)) === (n === 0 ? '' : String(n));
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return last;
}

/** The brand's card on the Brands page. */
const card = (page: Page, name: string) =>
  page.getByRole('article').filter({ has: page.getByRole('heading', { name, exact: true }) });

describe.skipIf(chromiumMissing !== null)(
  `Activity as an inbox, brand cards ${chromiumMissing ?? ''}`,
  { timeout: 120_000 },
  () => {
    test('Activity: Brand Edits and a failure need you (the badge counts them), uploads done in words, housekeeping in one line', async () => {
      const win = await openWindow();
      const { page, bridge } = win;
      const control = bridge.sim.control;
      await page.goto(`${bridge.host.origin}/#/activity`);
      const needs = page.locator('section', {
        has: page.getByRole('heading', { name: /^Needs you/ }),
      });
      const done = page.locator('section', {
        has: page.getByRole('heading', { name: 'Done', exact: true }),
      });
      await page.getByRole('heading', { name: 'Now', exact: true }).waitFor();

      // The demo's two Brand Edits of Northwind Coffee wait: listed with Review, and counted.
      const edits = needs.getByRole('listitem').filter({ hasText: 'Brand Edits of Northwind' });
      await edits.getByText('2 Brand Edits of Northwind Coffee').waitFor({ timeout: 20_000 });
      await edits.getByText('Wait for your approval').waitFor();
      await expect
        .poll(() => edits.getByRole('link', { name: /^Review/ }).getAttribute('href'))
        .toMatch(/^#\/brand\/.+\/edits$/);
      expect((await badgeAgrees(page, bridge)).edits).toBeGreaterThanOrEqual(2);

      // Housekeeping (brand listings, credit and edit checks, Library refreshes) is one line.
      await done.getByText(/^Checked with the service at \d/).waitFor({ timeout: 20_000 });
      const doneText = (await done.textContent()) ?? '';
      expect(doneText).not.toMatch(/Refresh-brands|Credits: workspaces|Library: |Brand Edits: /);
      // The brand folders made at start fold into one line, the folders behind its disclosure.
      const folders = done.locator('details', { hasText: /^Set up \d+ brand folders/ });
      await folders.waitFor({ timeout: 20_000 });
      expect(await done.textContent()).not.toContain('Created the folder');
      expect(await done.locator('li', { hasText: 'brand folders' }).count()).toBe(1);
      await folders.locator('summary').click();
      await folders
        .getByRole('listitem')
        .filter({ hasText: /^Northwind Coffee$/ })
        .waitFor();
      expect(await folders.getByRole('listitem').count()).toBeGreaterThanOrEqual(2);
      await folders.locator('summary').click();

      // Three files into Lumen Labs: one line in words, not three jobs.
      const folder = path.join(bridge.root, 'Lumen Labs');
      await mkdir(folder, { recursive: true });
      for (const seed of [1, 2, 3]) {
        await writeFile(
          path.join(folder, `board ${seed}.png`),
          makePng({ width: 6, height: 6, seed }),
        );
      }
      await done.getByText('3 files uploaded to Lumen Labs').waitFor({ timeout: 30_000 });

      // A file the service refuses: it needs the person, with its Retry; the badge counts it.
      control.failNext('POST /v1/images/uploads/file', {
        status: 400,
        code: 'UNSUPPORTED_FORMAT',
        message: 'The file is not an image the service takes.',
        count: 1,
      });
      await writeFile(path.join(folder, 'poster.png'), makePng({ width: 5, height: 5, seed: 9 }));
      const failed = needs.locator('li.failed', { hasText: 'poster.png' });
      await failed.waitFor({ timeout: 20_000 });
      // Counted: the badge holds the failure beside the edits.
      expect((await badgeAgrees(page, bridge)).failed).toBe(1);
      await expectAccessible(page, 'activity-inbox');
      await screenshot(page, 'activity-inbox', { dark: true });

      await failed.getByRole('button', { name: /^Retry/ }).click();
      await done.getByText('4 files uploaded to Lumen Labs').waitFor({ timeout: 20_000 });
      expect((await badgeAgrees(page, bridge)).failed).toBe(0);
      expect(await needs.locator('li.failed').count()).toBe(0);
      // The failure, retried, is not left behind in "Done" as news either.
      expect(await done.textContent()).not.toContain('not an image the service takes');

      // An edit applied: "Done" says so in words, and the badge counts one edit less.
      const northwind = await brandId(bridge, 'Northwind Coffee');
      const { edits: all } = await bridge.ok('edits', { brandId: northwind });
      const waiting = (all as { id: string; status: string }[]).find(
        (e) => e.status === 'awaiting_approval',
      );
      await bridge.ok('applyEdit', { brandId: northwind, editId: waiting!.id });
      await done.getByText(/^Edit applied to Northwind Coffee: /).waitFor({ timeout: 20_000 });
      // One edit less waits, and the badge says what the engine says needs the person (the
      // service may meanwhile finish preparing another edit of the demo on its own).
      const stillWaiting = async () =>
        (
          (await bridge.ok('edits', { brandId: northwind })).edits as {
            id: string;
            status: string;
          }[]
        )
          .filter((e) => e.status === 'awaiting_approval')
          .map((e) => e.id);
      expect(await stillWaiting()).not.toContain(waiting!.id);
      await badgeAgrees(page, bridge);
    });

    test('brand cards: the logo is the picture, a monogram without one, and the folder named once', async () => {
      const win = await openWindow();
      const { page, bridge } = win;
      // A demo brand's logo arrives with its Brand Skill, a while after start on a busy machine.
      type Row = { name: string; logo: unknown; folder: string | null };
      let brands: Row[] = [];
      await expect
        .poll(
          async () => {
            brands = (await bridge.ok('status')).brands as Row[];
            return brands.some((b) => b.logo !== null && b.folder === b.name);
          },
          { timeout: 30_000 },
        )
        .toBe(true);
      const withLogo = brands.find((b) => b.logo !== null && b.folder === b.name);
      const withoutLogo = brands.find((b) => b.logo === null);
      expect(withLogo, 'a demo brand with a logo').toBeDefined();
      expect(withoutLogo, 'a demo brand without a logo').toBeDefined();
      await page.goto(`${bridge.host.origin}/#/brands`);

      const logoCard = card(page, withLogo!.name);
      const img = logoCard.locator('.cover img');
      await expect
        .poll(() => img.evaluate((el) => (el as { complete: boolean }).complete))
        .toBe(true);
      const cardBox = (await logoCard.boundingBox())!;
      const imgBox = (await img.boundingBox())!;
      // The picture fills the card's image area: most of its width, a real height.
      expect(imgBox.width).toBeGreaterThan(cardBox.width * 0.7);
      expect(imgBox.height).toBeGreaterThan(100);
      expect(
        await img.evaluate(
          (el) =>
            (
              globalThis as unknown as { getComputedStyle(e: unknown): { objectFit: string } }
            ).getComputedStyle(el).objectFit,
        ),
      ).toBe('contain');

      // The folder's name shows once (the title), not again as a folder line.
      const text = (await logoCard.innerText()).split(withLogo!.name).length - 1;
      expect(text).toBe(1);

      // Without a logo (a brand still being analysed, one that failed): a monogram.
      const mono = card(page, withoutLogo!.name).locator('.cover .monogram');
      await expect.poll(() => mono.innerText()).toMatch(/^\p{Lu}{1,2}$/u);
      // The picture as a person sees it once settled: every ready brand's logo in place.
      await expect
        .poll(
          async () =>
            ((await bridge.ok('status')).brands as { status: string; logo: unknown }[]).filter(
              (b) => b.status === 'ready' && b.logo === null,
            ).length,
          { timeout: 30_000 },
        )
        .toBe(0);
      for (const b of (await bridge.ok('status')).brands as { name: string; logo: unknown }[]) {
        if (b.logo === null) continue;
        const logo = card(page, b.name).locator('.cover img');
        await expect
          .poll(() => logo.evaluate((el) => (el as { complete: boolean }).complete), {
            timeout: 20_000,
          })
          .toBe(true);
      }
      await expectAccessible(page, 'brands');
      await screenshot(page, 'brand-cards', { dark: true });
    });
  },
);

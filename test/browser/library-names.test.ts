// Issue 25 (Library) in Debian's Chromium over the headless host and the simulator: an image
// dropped into a brand folder shows in the Library under its file's name (a tile caption cut
// with an ellipsis, whole in the tooltip; the list view's row), the Library filter and the
// palette find it by that name, items with no local file are named by their description or a
// plain label (never "uploaded" or "generated"), the details never say "Not downloaded yet"
// beside a preview, and audio and video really load from the media cache.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { describe, expect, test } from 'vitest';
import { makePng } from '../folder-parts/fixtures.ts';
import { brandId, chromiumMissing, expectAccessible, openWindow } from './window-harness.ts';

/** The few DOM names the in-page checks use (this file is typed for Node, without the DOM). */
interface Media {
  readyState: number;
  duration: number;
  error: unknown;
}
interface Box {
  scrollWidth: number;
  clientWidth: number;
}
interface InPage {
  getComputedStyle(el: unknown): { textOverflow: string };
  document: { activeElement: { getAttribute(name: string): string | null } | null };
}

const FILE = 'Harbour poster final version for the spring campaign.png';
const REL = `campaign/${FILE}`;

/** Whether the media element has its metadata (and how long it says it is). */
async function mediaState(media: Locator): Promise<{ ready: number; duration: number }> {
  return media.evaluate((el) => {
    const m = el as unknown as Media;
    return { ready: m.readyState, duration: m.duration };
  });
}

async function openPalette(page: Page): Promise<void> {
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Find anything' }).waitFor();
  await page.waitForFunction(
    () =>
      (globalThis as unknown as InPage).document.activeElement?.getAttribute('aria-label') ===
      'Find anything',
  );
}

describe.skipIf(chromiumMissing !== null)(
  `Library names, details and media ${chromiumMissing ?? ''}`,
  { timeout: 180_000 },
  () => {
    test('an uploaded file names its item (caption, list, filter, palette); details agree with the preview; audio and video play from the media cache', async () => {
      const win = await openWindow();
      const { page, bridge } = win;
      const lumen = await brandId(bridge, 'Lumen Labs');

      // Items of the service with no local file: a video and audio described, an image not.
      bridge.sim.control.seedLibrary(lumen, {
        items: [
          { type: 'image', source: 'generated', description: null, fileSize: 9_000 },
          {
            type: 'video',
            source: 'uploaded',
            description: 'Launch teaser',
            fileSize: 20_000,
            durationMs: 7_000,
          },
          { type: 'audio', source: 'uploaded', description: 'Shop jingle', fileSize: 16_044 },
        ],
      });
      // A real file into the brand's folder, in a subfolder, uploaded by the engine.
      const folder = path.join(bridge.root, 'Lumen Labs', 'campaign');
      await mkdir(folder, { recursive: true });
      await writeFile(path.join(folder, FILE), makePng({ width: 40, height: 30, seed: 25 }));
      await bridge.ok('syncNow');
      // The engine found the file behind the item in its local index.
      await expect
        .poll(
          async () => {
            const page = await bridge.ok('library', { brandId: lumen });
            return (page.items as { localPath?: string | null; caption?: string }[])
              .filter((i) => i.localPath === REL)
              .map((i) => i.caption);
          },
          { timeout: 60_000 },
        )
        .toEqual([FILE]);
      await expect
        .poll(
          async () => {
            const items = (await bridge.ok('library', { brandId: lumen })).items as {
              caption?: string;
            }[];
            const wanted = ['Launch teaser', 'Shop jingle', 'Untitled image'];
            return wanted.filter((c) => items.some((i) => i.caption === c));
          },
          { timeout: 60_000 },
        )
        .toEqual(['Launch teaser', 'Shop jingle', 'Untitled image']);

      await page.goto(`${bridge.host.origin}/#/brand/${lumen}/library`);
      const grid = page.getByRole('listbox', { name: 'Library items' });
      const tile = grid.getByRole('option', { name: new RegExp(FILE.replace(/\./g, '\\.')) });
      await tile.waitFor({ timeout: 30_000 });

      // The caption: the file's name, cut with an ellipsis, whole (with its folder) as tooltip.
      const caption = tile.locator('.caption');
      expect(await caption.textContent()).toBe(FILE);
      expect(await tile.getAttribute('title')).toBe(`${FILE} (${REL})`);
      const cut = await caption.evaluate((el) => {
        const box = el as unknown as Box;
        return {
          overflows: box.scrollWidth > box.clientWidth,
          textOverflow: (globalThis as unknown as InPage).getComputedStyle(el).textOverflow,
        };
      });
      expect(cut).toEqual({ overflows: true, textOverflow: 'ellipsis' });
      // No tile is named by its source; one without a file or description has a plain label.
      const captions = await grid.locator('.tile .caption').allTextContents();
      expect(captions).toEqual(expect.arrayContaining(['Untitled image', 'Launch teaser']));
      expect(captions.filter((c) => /^(uploaded|generated|scraped)$/i.test(c.trim()))).toEqual([]);
      await expectAccessible(page, 'library-captions');

      // The list view names items the same way.
      await page.getByRole('button', { name: 'List', exact: true }).click();
      const row = grid.locator('.line', { hasText: FILE });
      await row.waitFor();
      expect(await row.locator('.desc').textContent()).toBe(FILE);
      const names = await grid.locator('.line .desc').allTextContents();
      expect(names).toEqual(expect.arrayContaining(['Untitled image', 'Shop jingle']));
      expect(names.filter((n) => /^(uploaded|generated|scraped)$/i.test(n.trim()))).toEqual([]);
      await expectAccessible(page, 'library-list-names');

      // The Library's filter finds it by words of its file name alone.
      await page.getByRole('searchbox', { name: 'Search the Library' }).fill('harbour spring');
      await expect.poll(() => grid.locator('.line .desc').allTextContents()).toEqual([FILE]);
      await page.getByRole('searchbox', { name: 'Search the Library' }).fill('');
      await grid.locator('.line', { hasText: 'Shop jingle' }).waitFor();
      await page.getByRole('button', { name: 'Grid', exact: true }).click();

      // So does the palette (the engine's word index), from another screen.
      await page.getByRole('link', { name: 'Settings' }).click();
      await openPalette(page);
      await page.keyboard.type('harbour poster');
      await page.locator('.palette[data-answered="harbour poster"]').waitFor();
      await page.getByRole('option', { name: /Harbour poster final version/ }).waitFor();
      await page.keyboard.press('Escape');

      // Details of the image: its preview is served from the media cache, so it is "kept
      // here", never "not downloaded" beside it; the pixel size is the preview's own.
      await page.goto(`${bridge.host.origin}/#/brand/${lumen}/library`);
      await tile.click();
      const details = page.getByRole('complementary', { name: 'Item details' });
      await details.locator('.preview .thumb.loaded').waitFor({ timeout: 30_000 });
      const offline = details.getByTestId('offline');
      await expect.poll(() => offline.getAttribute('data-state')).toBe('kept');
      expect(await details.textContent()).not.toContain('Not downloaded yet');
      expect(await details.getByTestId('dimensions').textContent()).toBe('40 × 30');
      expect(await details.getByText(REL).count()).toBe(1);

      // A video plays from the media cache: Chromium has its metadata and its length.
      await grid.getByRole('option', { name: /Launch teaser/ }).click();
      const video = details.locator('video[controls]');
      await details.locator('video[data-state="shown"]').waitFor({ timeout: 30_000 });
      const v = await mediaState(video);
      expect(v.ready).toBeGreaterThanOrEqual(1);
      expect(v.duration).toBeCloseTo(7, 1);
      expect(await video.getAttribute('src')).toMatch(/^\/files\/media\//);
      expect(await details.getByTestId('duration').textContent()).toBe('0:07');
      expect(await offline.getAttribute('data-state')).toBe('kept');
      await expectAccessible(page, 'library-details-video');

      // So does audio (a WAV of 16,000 samples at 8 kHz: two seconds).
      await grid.getByRole('option', { name: /Shop jingle/ }).click();
      const audio = details.locator('audio[controls]');
      await details.locator('audio[data-state="shown"]').waitFor({ timeout: 30_000 });
      const a = await mediaState(audio);
      expect(a.ready).toBeGreaterThanOrEqual(1);
      expect(a.duration).toBeCloseTo(2, 1);
      expect(await details.getByTestId('duration').textContent()).toBe('0:02');
      expect(await offline.getAttribute('data-state')).toBe('kept');
      expect(await details.textContent()).not.toContain('Not downloaded yet');
      await expectAccessible(page, 'library-details-audio');
    });
  },
);

// The window by keyboard and adding files, in Debian's Chromium over the headless host and the
// simulator (issue 25): the Library is one Tab stop whose arrows, Home, End, PageUp and
// PageDown move between items, Enter opens the details and Escape closes them back to the
// item; opening a brand or a tab puts focus on its heading; "Add files…" picks files, and
// what is not an image is refused before it is copied, saying which file and why.
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { describe, expect, test } from 'vitest';
import { makePng } from '../folder-parts/fixtures.ts';
import {
  brandId,
  chromiumMissing,
  expectAccessible,
  openWindow,
  screenshot,
} from './window-harness.ts';

/** What has focus: its tag, role, aria-activedescendant, text and the list it is in. */
function focused(page: Page) {
  return page.evaluate(() => {
    const g = globalThis as unknown as {
      document: {
        activeElement: {
          tagName: string;
          textContent: string | null;
          getAttribute(name: string): string | null;
          closest(selector: string): unknown;
        } | null;
      };
    };
    const el = g.document.activeElement;
    return {
      tag: el?.tagName.toLowerCase() ?? null,
      role: el?.getAttribute('role') ?? null,
      active: el?.getAttribute('aria-activedescendant') ?? null,
      text: el?.textContent?.trim() ?? null,
      inLibrary: el?.closest('.list-wrap') != null,
    };
  });
}

/** The ids of the Library items on screen, row by row. */
function rowsOnScreen(page: Page, selector: string): Promise<string[][]> {
  return page.evaluate((sel) => {
    const g = globalThis as unknown as {
      document: {
        querySelectorAll(s: string): Iterable<{
          id: string;
          getBoundingClientRect(): { top: number };
        }>;
      };
    };
    const byTop = new Map<number, string[]>();
    for (const el of g.document.querySelectorAll(sel)) {
      const top = Math.round(el.getBoundingClientRect().top);
      byTop.set(top, [...(byTop.get(top) ?? []), el.id]);
    }
    return [...byTop.entries()].sort((a, b) => a[0] - b[0]).map(([, ids]) => ids);
  }, selector);
}

/** Whether the element with `id` is inside the Library's visible box. */
function onScreen(page: Page, id: string): Promise<boolean> {
  return page.evaluate((wanted) => {
    type Box = { top: number; bottom: number };
    const g = globalThis as unknown as {
      document: {
        getElementById(s: string): { getBoundingClientRect(): Box } | null;
        querySelector(s: string): { getBoundingClientRect(): Box } | null;
      };
    };
    const el = g.document.getElementById(wanted)?.getBoundingClientRect();
    const list = g.document.querySelector('.vlist')?.getBoundingClientRect();
    return !!el && !!list && el.top >= list.top - 1 && el.bottom <= list.bottom + 1;
  }, id);
}

describe.skipIf(chromiumMissing !== null)(
  `keyboard and adding files ${chromiumMissing ?? ''}`,
  { timeout: 90_000 },
  () => {
    test('the Library grid is one Tab stop: arrows, Home, End, PageUp, PageDown; Enter opens the details, Escape closes them back on the tile; the ring is drawn inside the tile', async () => {
      const { page } = await openWindow();
      await page.getByRole('link', { name: 'Lumen Labs' }).first().click();
      // Opening a brand puts focus on its name.
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1', text: 'Lumen Labs' });
      await page.locator('.tile').first().waitFor();

      // One Tab stop: from the List button, Tab lands on the Library, the next Tab leaves it.
      await page.getByRole('button', { name: 'List', exact: true }).focus();
      await page.keyboard.press('Tab');
      const listbox = page.getByRole('listbox', { name: 'Library items' });
      const rows = await rowsOnScreen(page, '.tile');
      const columns = rows[0]!.length;
      expect(columns).toBeGreaterThan(1);
      await expect
        .poll(() => focused(page))
        .toMatchObject({ role: 'listbox', active: rows[0]![0] });
      await page.keyboard.press('Tab');
      await expect.poll(async () => (await focused(page)).inLibrary).toBe(false);
      await page.keyboard.press('Shift+Tab');
      await expect.poll(() => focused(page)).toMatchObject({ role: 'listbox' });

      // Arrows: Right within a row and across it, Down and Up by a row.
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => listbox.getAttribute('aria-activedescendant')).toBe(rows[0]![1]);
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => listbox.getAttribute('aria-activedescendant')).toBe(rows[1]![1]);
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      await expect
        .poll(() => listbox.getAttribute('aria-activedescendant'))
        .toBe(rows[0]![columns - 1]);
      await page.keyboard.press('ArrowUp');
      await expect
        .poll(() => listbox.getAttribute('aria-activedescendant'))
        .toBe(rows[0]![columns - 1]);
      // The keyboard's tile shows a ring drawn inside it, light within, over the picture.
      const ring = await page.evaluate(
        (id) => {
          const g = globalThis as unknown as {
            document: { getElementById(s: string): unknown };
            getComputedStyle(el: unknown, pseudo: string): { boxShadow: string };
          };
          return g.getComputedStyle(g.document.getElementById(id), '::after').boxShadow;
        },
        rows[0]![columns - 1]!,
      );
      expect(ring).toMatch(/inset.*inset/);

      // PageDown, End far down the list (scrolled to, on screen), Home and PageUp back.
      await page.keyboard.press('Home');
      await page.keyboard.press('PageDown');
      await expect
        .poll(async () => {
          const id = await listbox.getAttribute('aria-activedescendant');
          return id !== null && !rows.slice(0, 2).flat().includes(id) && (await onScreen(page, id));
        })
        .toBe(true);
      await page.keyboard.press('End');
      let last = '';
      await expect
        .poll(async () => {
          last = (await listbox.getAttribute('aria-activedescendant')) ?? '';
          return !rows.flat().includes(last) && (await onScreen(page, last));
        })
        .toBe(true);
      await page.keyboard.press('PageUp');
      await expect.poll(() => listbox.getAttribute('aria-activedescendant')).not.toBe(last);
      await page.keyboard.press('Home');
      await expect.poll(() => listbox.getAttribute('aria-activedescendant')).toBe(rows[0]![0]);
      await expect.poll(() => onScreen(page, rows[0]![0]!)).toBe(true);

      // Enter opens the details of the tile; Escape closes them, focus back on it.
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      const details = page.getByRole('complementary', { name: 'Item details' });
      await details.waitFor();
      await expect
        .poll(() => page.locator(`[id="${rows[0]![1]}"]`).getAttribute('aria-selected'))
        .toBe('true');
      await expectAccessible(page, 'library-keyboard');
      await screenshot(page, 'library-keyboard', { dark: true });
      await page.keyboard.press('Escape');
      await expect.poll(() => details.count()).toBe(0);
      await expect
        .poll(() => focused(page))
        .toMatchObject({ role: 'listbox', active: rows[0]![1] });
      // Escape inside the details too.
      await page.keyboard.press('Enter');
      await details.getByRole('button', { name: 'Close details' }).focus();
      await page.keyboard.press('Escape');
      await expect.poll(() => details.count()).toBe(0);
      await expect
        .poll(() => focused(page))
        .toMatchObject({ role: 'listbox', active: rows[0]![1] });

      // The list view likewise: one option per line, Down moves by one.
      await page.getByRole('button', { name: 'List', exact: true }).click();
      await page.locator('.line').first().waitFor();
      const lines = (await rowsOnScreen(page, '.line')).flat();
      await listbox.focus();
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => listbox.getAttribute('aria-activedescendant')).toBe(lines[1]);
      await page.keyboard.press('Enter');
      await details.waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => details.count()).toBe(0);
      await expectAccessible(page, 'library-list-keyboard');
    });

    test('"Add files…" picks images into the brand folder; a text file is refused in the window and one that only claims to be an image by the engine, naming the file and why; the tab opened gets focus on its heading, arrows in the tab list keep it there', async () => {
      const { page, bridge } = await openWindow();
      // File choosers are intercepted from now on: asked only at the click, the interception
      // can lag behind the key press that opens the picker.
      page.on('filechooser', () => undefined);
      const id = await brandId(bridge, 'Lumen Labs');
      await page.getByRole('link', { name: 'Lumen Labs' }).first().click();
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1', text: 'Lumen Labs' });

      // Arrows in the tab list move the tab and keep focus on it.
      await page.getByRole('tab', { name: 'Library' }).focus();
      await page.keyboard.press('ArrowRight');
      const skill = page.getByRole('tab', { name: 'Brand Skill' });
      await expect.poll(() => skill.getAttribute('aria-selected')).toBe('true');
      await expect.poll(() => focused(page)).toMatchObject({ role: 'tab', text: 'Brand Skill' });

      // By keyboard: the button opens the picker (image types only).
      const add = page.getByRole('button', { name: 'Add files…' });
      await add.focus();
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'button', text: 'Add files…' });
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.keyboard.press('Enter'),
      ]);
      expect(chooser.isMultiple()).toBe(true);
      expect(await page.locator('input[type=file]').getAttribute('accept')).toBe(
        'image/png,image/jpeg,image/webp,image/avif',
      );
      const png = makePng({ width: 12, height: 12, seed: 44 });
      await chooser.setFiles([
        { name: 'picked.png', mimeType: 'image/png', buffer: png },
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('a note\n') },
      ]);
      await page
        .getByRole('alert')
        .or(page.getByRole('status'))
        .filter({ hasText: 'notes.txt was not added' })
        .first()
        .waitFor();
      await page.getByRole('status').filter({ hasText: '1 file added to Lumen Labs' }).waitFor();
      const folder = path.join(bridge.root, 'Lumen Labs');
      await expect(readFile(path.join(folder, 'picked.png'))).resolves.toEqual(png);
      await expect(access(path.join(folder, 'notes.txt'))).rejects.toThrow();
      // The Files tab was opened for the person: focus on its heading.
      await expect
        .poll(() => page.getByRole('tab', { name: 'Files' }).getAttribute('aria-selected'))
        .toBe('true');
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'h2', text: 'Files' });
      expect(page.url()).toContain(encodeURIComponent(id));

      // Text that calls itself image/png passes the window's quick check; the engine refuses
      // it by its bytes, before it is copied.
      await page.getByRole('tab', { name: 'Library' }).click();
      const [again] = await Promise.all([page.waitForEvent('filechooser'), add.click()]);
      await again.setFiles([
        { name: 'disguised.png', mimeType: 'image/png', buffer: Buffer.from('not a picture\n') },
      ]);
      await page
        .getByRole('alert')
        .or(page.getByRole('status'))
        .filter({ hasText: 'disguised.png was not added' })
        .first()
        .waitFor();
      await expect(access(path.join(folder, 'disguised.png'))).rejects.toThrow();
      await screenshot(page, 'add-files-refused', { toasts: true });
      await expectAccessible(page, 'add-files');
    });
  },
);

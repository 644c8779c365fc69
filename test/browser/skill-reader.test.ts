// The Brand Skill reader in Debian's Chromium over the headless host and the simulator: links
// between the Skill's markdown open in the viewer with back and forward (external ones outside),
// front matter as a metadata block, type specimens in the Skill's own font file (or said not
// installed, with the name to copy), and colour cards of one height that copy HEX, RGB or a CSS
// variable. Each screen passes axe in light and dark and is photographed.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { describe, expect, test } from 'vitest';
import {
  brandId,
  chromiumMissing,
  expectAccessible,
  openWindow,
  screenshot,
  type Window,
} from './window-harness.ts';

interface SkillAnswer {
  path: string;
  profile: {
    colors: { hex: string; name: string | null }[];
    fonts: { family: string; role: string | null }[];
  };
}

/** The window on Northwind Coffee's Brand Skill, once its files are on disk. */
async function openSkill(win: Window, file: string | null = null) {
  const { page, bridge } = win;
  const northwind = await brandId(bridge, 'Northwind Coffee');
  await page.getByRole('link', { name: 'Northwind Coffee' }).first().waitFor();
  await page.goto(
    `${bridge.host.origin}/#/brand/${northwind}/skill${file ? `/${encodeURIComponent(file)}` : ''}`,
  );
  await page.getByRole('navigation', { name: 'Brand Skill files' }).waitFor({ timeout: 20_000 });
  const skill = (await bridge.ok('skill', { brandId: northwind })) as unknown as SkillAnswer;
  return { northwind, skill };
}

const article = (page: Page) => page.locator('article.markdown');
const hashOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash);

async function clipboard(page: Page): Promise<string> {
  return page.evaluate(() =>
    (
      globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
    ).navigator.clipboard.readText(),
  );
}

describe.skipIf(chromiumMissing !== null)(
  `Brand Skill reader ${chromiumMissing ?? ''}`,
  { timeout: 90_000 },
  () => {
    test('a relative link opens the file in the viewer, with back and forward; an external one opens outside', async () => {
      const win = await openWindow();
      const { page } = win;
      const { northwind, skill } = await openSkill(win, 'SKILL.md');
      const origin = new URL(page.url()).origin;
      await article(page).getByRole('heading', { level: 1 }).waitFor();

      await article(page).getByRole('link', { name: 'Colours' }).click();
      await article(page).getByRole('heading', { level: 1, name: 'Colours' }).waitFor();
      expect(new URL(page.url()).origin).toBe(origin);
      expect(hashOf(page)).toBe(`#/brand/${northwind}/skill/guidelines/visual/colors.md`);
      // Relative to the file shown: typography.md beside colors.md, SKILL.md two folders up.
      await article(page).getByRole('link', { name: 'Typography' }).click();
      await article(page).getByRole('heading', { level: 1, name: 'Typography' }).waitFor();
      expect(hashOf(page)).toBe(`#/brand/${northwind}/skill/guidelines/visual/typography.md`);

      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await article(page).getByRole('heading', { level: 1, name: 'Colours' }).waitFor();
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await article(page).getByRole('link', { name: 'Colours' }).waitFor();
      await page.getByRole('button', { name: 'Forward' }).click();
      await article(page).getByRole('heading', { level: 1, name: 'Colours' }).waitFor();
      await expect
        .poll(() => page.locator('.tree [aria-current="true"]').textContent())
        .toContain('colors.md');
      // The address's own history too.
      await page.goBack();
      await article(page).getByRole('link', { name: 'Colours' }).waitFor();
      await page.goForward();
      await article(page).getByRole('heading', { level: 1, name: 'Colours' }).waitFor();
      await article(page).getByRole('link', { name: 'overview' }).click();
      await article(page).getByRole('link', { name: 'Colours' }).waitFor();

      // Never above the Skill: a link climbing out lands inside it.
      await writeFile(
        path.join(skill.path, 'guidelines', 'escape.md'),
        '# Escape\n\n[Out](../../../../etc/hosts) and [root](/profile.json)\n',
      );
      await page.goto(
        `${origin}/#/brand/${northwind}/skill/${encodeURIComponent('guidelines/escape.md')}`,
      );
      const out = article(page).getByRole('link', { name: 'Out' });
      await out.waitFor();
      expect(decodeURIComponent((await out.getAttribute('href')) ?? '')).toBe(
        `#/brand/${northwind}/skill/etc/hosts`,
      );
      await article(page).getByRole('link', { name: 'root' }).click();
      await page.locator('pre.text', { hasText: '"schemaVersion"' }).waitFor();

      // An external link opens outside, the app stays where it is.
      await page.goto(
        `${origin}/#/brand/${northwind}/skill/${encodeURIComponent('guidelines/visual/typography.md')}`,
      );
      const external = article(page).getByRole('link', { name: 'Google Fonts' });
      await external.waitFor();
      expect(await external.getAttribute('target')).toBe('_blank');
      expect(await external.getAttribute('rel')).toContain('noopener');
      expect(await external.getAttribute('href')).toBe('https://fonts.google.com/');
      await expectAccessible(page, 'skill-reader-links');
      await screenshot(page, 'skill-reader-links');
    });

    test('front matter shows as a metadata block, not as markdown', async () => {
      const win = await openWindow();
      const { page } = win;
      await openSkill(win, 'SKILL.md');
      const meta = page.getByRole('definition').first();
      await meta.waitFor();
      const block = page.locator('dl.front-matter');
      await expect(block.locator('dt').allTextContents()).resolves.toEqual([
        'name',
        'description',
        'version',
      ]);
      await expect(block.locator('dd').first().textContent()).resolves.toBe(
        'northwind-coffee-brand',
      );
      // The markdown starts at its heading: no rule, no bold "name: … description: …" line.
      const body = article(page);
      expect(await body.locator('hr').count()).toBe(0);
      expect(await body.textContent()).not.toContain('description:');
      await expect(
        body.evaluate(
          (el) =>
            (el as unknown as { firstElementChild: { tagName: string } }).firstElementChild.tagName,
        ),
      ).resolves.toBe('H1');
      await expectAccessible(page, 'skill-reader-front-matter');
      await screenshot(page, 'skill-reader-front-matter', { dark: true });
    });

    test('type specimens in the Skill’s font file, else said not installed with the name to copy', async () => {
      const win = await openWindow();
      const { page, bridge } = win;
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: bridge.host.origin,
      });
      const { skill } = await openSkill(win);
      await page.getByRole('heading', { name: 'Typography' }).waitFor();
      const heading = skill.profile.fonts.find((f) => f.role === 'heading');
      const body = skill.profile.fonts.find((f) => f.role === 'body');
      if (!heading || !body) throw new Error('the demo Skill names a heading and a body face');
      const card = (family: string) => page.locator('.font', { hasText: family });

      // The heading's face is in the Skill: loaded from its file URL and set on the specimen.
      await expect.poll(() => card(heading.family).getAttribute('data-font-state')).toBe('loaded');
      const set = await card(heading.family)
        .locator('.specimen')
        .evaluate((el) => {
          const g = globalThis as unknown as {
            getComputedStyle(e: unknown): { fontFamily: string };
            document: {
              fonts: { forEach(f: (face: { family: string; status: string }) => void): void };
            };
          };
          const family = g.getComputedStyle(el).fontFamily;
          const faces: { family: string; status: string }[] = [];
          g.document.fonts.forEach((f) => faces.push({ family: f.family, status: f.status }));
          return { family, faces };
        });
      const face = set.family.split(',')[0]?.replace(/"/g, '').trim() ?? '';
      expect(face).toMatch(/^skill-/);
      expect(set.faces.filter((f) => f.family.replace(/"/g, '') === face)).toEqual([
        { family: expect.stringContaining(face), status: 'loaded' },
      ]);
      await expect(card(heading.family).textContent()).resolves.toContain('from the Brand Skill');

      // The body's is not: said so, and its name copies.
      await expect.poll(() => card(body.family).getAttribute('data-font-state')).toBe('missing');
      await expect(card(body.family).textContent()).resolves.toContain('not installed');
      await card(body.family).getByRole('button', { name: 'Copy name' }).click();
      await card(body.family).getByText('Copied').waitFor();
      expect(await clipboard(page)).toBe(body.family);
      await expectAccessible(page, 'skill-reader-fonts');
      await screenshot(page, 'skill-reader-fonts', { dark: true });
    });

    test('colour cards of one height copy HEX, RGB or the CSS variable, as chosen', async () => {
      const win = await openWindow();
      const { page, bridge } = win;
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: bridge.host.origin,
      });
      const { skill } = await openSkill(win);
      await page.getByRole('heading', { name: 'Colours' }).waitFor();
      // A name long enough to wrap (set in the page: the demo's names are short) leaves every
      // card at the tallest one's height.
      await page
        .locator('.swatches .swatch .name')
        .last()
        .evaluate((el) => {
          (el as unknown as { textContent: string }).textContent =
            'A very long colour name that wraps over several lines of its card';
        });
      const cards = page.locator('.swatches .swatch');
      await expect.poll(() => cards.count()).toBe(skill.profile.colors.length);
      const heights = await cards.evaluateAll((els) =>
        els.map(
          (el) =>
            (
              el as unknown as { getBoundingClientRect(): { height: number } }
            ).getBoundingClientRect().height,
        ),
      );
      expect(new Set(heights).size).toBe(1);

      const first = skill.profile.colors[0];
      if (!first?.name) throw new Error('the demo Skill names its colours');
      const swatch = page.locator('.swatches .swatch').first();
      const hex = first.hex.toUpperCase();
      const n = (i: number) => parseInt(first.hex.slice(1 + i * 2, 3 + i * 2), 16);
      const rgb = `rgb(${n(0)}, ${n(1)}, ${n(2)})`;

      await swatch.click();
      await swatch.getByText(`Copied ${hex}`).waitFor();
      expect(await clipboard(page)).toBe(hex);

      await page.getByRole('radio', { name: 'RGB' }).check();
      await swatch.click();
      await swatch.getByText(`Copied ${rgb}`).waitFor();
      expect(await clipboard(page)).toBe(rgb);

      await page.getByRole('radio', { name: 'CSS variable' }).check();
      await swatch.click();
      await swatch.getByText(/Copied var\(--color-/).waitFor();
      const variable = await clipboard(page);
      const name = /^var\((--color-[a-z0-9-]+)\)$/.exec(variable)?.[1];
      expect(name).toBeDefined();
      // The variable is the one the Skill's palette.css defines for this colour.
      const css = await readFile(path.join(skill.path, 'assets', 'colors', 'palette.css'), 'utf8');
      expect(css).toContain(`${name}: ${first.hex};`);
      await expectAccessible(page, 'skill-reader-colours');
      await screenshot(page, 'skill-reader-colours', { dark: true });
    });
  },
);

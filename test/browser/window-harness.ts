// The window in Debian's Chromium against the headless host (the same code as `brand-sync
// serve`) over the simulator: a page signed in through the printed URL's token, an axe check
// of the screen in light and dark, and screenshots as test artifacts. With
// BRAND_SYNC_SCREENSHOTS=docs they are also written to docs/screenshots for the README.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { expect, onTestFinished } from 'vitest';
import { startBridge, type Bridge } from '../bridge/harness.ts';
import { launchChromium } from '../support/chromium.ts';

export { chromiumMissing } from '../support/chromium.ts';

const ARTIFACTS = path.resolve('test-results/screenshots');
const DOCS = path.resolve('docs/screenshots');

export interface Window {
  bridge: Bridge;
  browser: Browser;
  page: Page;
  /** Console errors and page errors seen so far. */
  errors: string[];
}

/**
 * The window for the running test. It is closed when the test ends, and a page that logged an
 * error by then fails the test.
 */
export async function openWindow(
  options: Parameters<typeof startBridge>[0] & { colorScheme?: 'light' | 'dark' } = {},
): Promise<Window> {
  const bridge = await startBridge(options);
  const browser = await launchChromium().catch(async (error: unknown) => {
    await bridge.close();
    throw error;
  });
  const errors: string[] = [];
  onTestFinished(async () => {
    await browser.close();
    await bridge.close();
    expect(errors).toEqual([]);
  });
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  page.on('console', (m) => {
    // The browser reports a failed resource load (an offline thumbnail) as a console error;
    // the page shows a placeholder for it, which the tests check where it matters.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) {
      errors.push(m.text());
    }
  });
  page.on('pageerror', (e) => void errors.push(e.message));
  await page.goto(bridge.host.url);
  return { bridge, browser, page, errors };
}

/**
 * Sets the OS's colour scheme and waits until the window shows it (`data-theme`), or until it
 * is known to keep a theme chosen in its settings: never a fixed wait that a loaded machine
 * outlasts.
 */
async function useScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  // A function, not source: the page's CSP allows no eval.
  await page.waitForFunction((wanted) => {
    const { document } = globalThis as unknown as InPage;
    const { theme, themeSetting } = document.documentElement.dataset;
    if (themeSetting === undefined) return false;
    return themeSetting !== 'system' || theme === wanted;
  }, scheme);
}

/** No serious or critical axe violation on the screen as it is now, in light and in dark. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await useScheme(page, scheme);
    const result = await new AxeBuilder({ page }).analyze();
    const bad = result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${scheme} ${screen}: ${v.id} (${v.impact}): ${v.help} at ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(', ')}`,
      );
    expect(bad).toEqual([]);
  }
  expect(
    await unreachableScrollBoxes(page),
    `${screen}: scrolling boxes keys cannot reach`,
  ).toEqual([]);
  await useScheme(page, 'light');
}

/**
 * Saves the page as `name.png` (and `name-dark.png` with `dark`). Notifications still on
 * screen from earlier steps are left out unless `toasts` (they would cover every picture).
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { dark?: boolean; toasts?: boolean } = {},
): Promise<void> {
  const style = options.toasts ? undefined : '.toasts { visibility: hidden !important; }';
  const targets = [ARTIFACTS, ...(process.env.BRAND_SYNC_SCREENSHOTS === 'docs' ? [DOCS] : [])];
  for (const dir of targets) await mkdir(dir, { recursive: true });
  const shots: ['light' | 'dark', string][] = [['light', name]];
  if (options.dark) shots.push(['dark', `${name}-dark`]);
  for (const [scheme, file] of shots) {
    await useScheme(page, scheme);
    for (const dir of targets) {
      await page.screenshot({ path: path.join(dir, `${file}.png`), ...(style ? { style } : {}) });
    }
  }
  await useScheme(page, 'light');
}

/** The ID of a demo brand by name. */
export async function brandId(bridge: Bridge, name: string): Promise<string> {
  const status = await bridge.ok('status');
  const brand = (status.brands as { id: string; name: string }[]).find((b) => b.name === name);
  if (!brand) throw new Error(`no brand named ${name}`);
  return brand.id;
}

/**
 * Boxes that scroll when their content is long (overflow auto or scroll) and are not focusable
 * themselves. axe flags such a box only when it overflows and holds nothing focusable at that
 * moment (a queued job's Cancel button comes and goes with the machine's speed); this asks it
 * of every box that could scroll, whatever its content now. Dialogs are exempt: they take focus.
 */
function unreachableScrollBoxes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as unknown as InPage;
    return [...document.querySelectorAll('body *')]
      .filter((el) => {
        const style = getComputedStyle(el);
        if (!/auto|scroll/.test(`${style.overflowX} ${style.overflowY}`)) return false;
        if (style.display === 'none' || el.tabIndex >= 0) return false;
        return !/^(dialog|alertdialog)$/.test(el.getAttribute('role') ?? '');
      })
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`);
  });
}

/** The few DOM names the in-page checks use: this file is typed for Node, without the DOM. */
interface InPageElement {
  tagName: string;
  tabIndex: number;
  classList: Iterable<string>;
  dataset: Record<string, string | undefined>;
  getAttribute(name: string): string | null;
}
interface InPage {
  document: {
    documentElement: InPageElement;
    querySelectorAll(selector: string): Iterable<InPageElement>;
  };
  getComputedStyle(element: InPageElement): {
    overflowX: string;
    overflowY: string;
    display: string;
  };
}

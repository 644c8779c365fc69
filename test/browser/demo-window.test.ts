// What a newcomer does first, as the real bin: `demo` prints the window's URL; Chromium opens
// it and sees the brands and the credits; a file written into a brand folder on disk shows in
// the page, uploading then uploaded, without a reload (the event stream carries it).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makePng } from '../folder-parts/fixtures.ts';
import { chromiumMissing, launchChromium } from '../support/chromium.ts';
import { startCli } from '../support/run-cli.ts';

let dir: string;
let browser: Browser | undefined;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'demo-window-'));
});
afterEach(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(chromiumMissing !== null)(`demo in Chromium ${chromiumMissing ?? ''}`, () => {
  test(
    'the printed URL opens the window; a file dropped on disk shows without a reload',
    { timeout: 90_000 },
    async () => {
      const root = path.join(dir, 'root');
      const child = startCli(
        ['--data-dir', path.join(dir, 'data'), '--root', root, 'demo', '--port', '0'],
        { HOME: dir },
      );
      try {
        const end = Date.now() + 30_000;
        while (!/^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/m.test(child.stdout)) {
          if (Date.now() > end) throw new Error(`no URL printed:\n${child.stdout}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const url = (
          /^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/m.exec(child.stdout) as RegExpExecArray
        )[0];

        browser = await launchChromium();
        const page = await (await browser.newContext()).newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => void errors.push(e.message));
        await page.goto(url);
        // The token became a cookie and left the address bar.
        expect(page.url()).not.toContain('token=');
        await page.getByRole('heading', { name: 'Northwind Coffee' }).waitFor();
        await page.getByRole('heading', { name: 'Lumen Labs' }).waitFor();
        await expect
          .poll(() => page.getByRole('button', { name: 'Credits by workspace' }).textContent())
          .toContain('120');

        await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 7));
        await page.getByRole('link', { name: 'Northwind Coffee' }).first().click();
        await page.getByRole('tab', { name: 'Files' }).click();
        await page.getByText('The folder is empty').waitFor();

        await writeFile(
          path.join(root, 'Northwind Coffee', 'menu-board.png'),
          makePng({ width: 6, height: 6, seed: 11 }),
        );
        const row = page.locator('tr', { hasText: 'menu-board.png' });
        await row.waitFor({ timeout: 20_000 });
        await expect
          .poll(() => row.getAttribute('data-state'), { timeout: 30_000 })
          .toBe('uploaded');
        // Same page all along: no reload.
        expect(
          await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker),
        ).toBe(7);
        expect(errors).toEqual([]);
      } finally {
        child.kill('SIGINT');
        await child.exited;
      }
    },
  );
});

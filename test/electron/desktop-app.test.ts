// The packaged desktop app in Electron, driven by Playwright's `_electron`: start-up on the
// app:// origin with the sandboxed preload, sign-in, one dropped file uploaded, the tray's state;
// the window's guards as they act in Electron (no remote request, our menu, the bridge's sender).
// Electron's runtime cannot be downloaded on every machine (not on these CI machines): the
// suite then skips and says why, as `npm start` does. Everything it wires is also tested in
// plain Node (the other files of test/electron).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron } from '@playwright/test';
import { describe, expect, test } from 'vitest';
import { desktopUnavailable } from '../../bin/start.js';
import { startSimulator } from '../../simulator/index.ts';
import { makePng } from '../folder-parts/fixtures.ts';

const why: string | null = desktopUnavailable();

describe.skipIf(why !== null)(`desktop app in Electron (skipped: ${why ?? ''})`, () => {
  test(
    'starts on app://, signs in, uploads a dropped file, the tray follows the state',
    { timeout: 120_000 },
    async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'electron-app-'));
      const sim = await startSimulator({
        apiKeys: ['sk-electron-test'],
        demo: true,
        rateLimit: false,
      });
      const root = path.join(dir, 'root');
      const app = await electron.launch({
        args: [path.resolve('.')],
        env: {
          ...process.env,
          HOME: dir,
          XDG_CONFIG_HOME: path.join(dir, 'config'),
          BRAND_SYNC_BASE_URL: sim.baseUrl,
          BRAND_SYNC_ROOT: root,
        },
      });
      try {
        const page = await app.firstWindow();
        expect(page.url()).toMatch(/^app:\/\/brand-sync\//);
        expect(
          await page.evaluate(() => typeof (globalThis as { require?: unknown }).require),
        ).toBe('undefined');
        await page.getByRole('textbox', { name: 'API key' }).fill('sk-electron-test');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Northwind Coffee' }).waitFor({ timeout: 30_000 });
        await writeFile(
          path.join(root, 'Northwind Coffee', 'from-electron.png'),
          makePng({ seed: 5 }),
        );
        await page.getByRole('link', { name: 'Northwind Coffee' }).first().click();
        await page.getByRole('tab', { name: 'Files' }).click();
        const row = page.locator('tr', { hasText: 'from-electron.png' });
        await expect
          .poll(() => row.getAttribute('data-state'), { timeout: 30_000 })
          .toBe('uploaded');
        // The tray says so at a glance; pausing from the window changes it.
        const trayShown = () =>
          app.evaluate(
            () =>
              (
                (globalThis as Record<symbol, unknown>)[Symbol.for('brand-sync.tray-shown')] as
                  { kind: string; label: string } | undefined
              )?.kind,
          );
        await expect.poll(trayShown, { timeout: 30_000 }).toBe('in-sync');
        await page.getByRole('button', { name: 'Pause syncing' }).click();
        await expect.poll(trayShown, { timeout: 10_000 }).toBe('paused');
        expect(
          await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length),
        ).toBe(1);
      } finally {
        await app.close();
        await sim.close();
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  test(
    'the window loads nothing remote, has our own menu, and only its page has the bridge',
    { timeout: 120_000 },
    async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'electron-shell-'));
      const sim = await startSimulator({ apiKeys: ['sk-electron-test'], rateLimit: false });
      const app = await electron.launch({
        args: [path.resolve('.')],
        env: {
          ...process.env,
          HOME: dir,
          XDG_CONFIG_HOME: path.join(dir, 'config'),
          BRAND_SYNC_BASE_URL: sim.baseUrl,
          BRAND_SYNC_ROOT: path.join(dir, 'root'),
        },
      });
      try {
        const page = await app.firstWindow();
        await page.waitForLoadState('domcontentloaded');
        // The simulator answers on loopback; the page may not reach it (CSP and session both).
        expect(
          await page.evaluate(
            (url) =>
              fetch(url).then(
                () => 'loaded',
                () => 'refused',
              ),
            `${sim.baseUrl}/`,
          ),
        ).toBe('refused');
        // The page's bridge answers (the sender is the window's main frame on the app page).
        expect(
          await page.evaluate(async () => {
            const bridge = (globalThis as { brandSync?: { session(): Promise<{ ok: boolean }> } })
              .brandSync;
            return (await bridge?.session())?.ok;
          }),
        ).toBe(true);
        // Our menu, not Electron's default (whose Help menu links to electronjs.org).
        const labels = await app.evaluate(({ Menu }) =>
          (Menu.getApplicationMenu()?.items ?? []).map((item) => item.label),
        );
        expect(labels).not.toContain('Help');
        expect(labels).toEqual(expect.arrayContaining(['Edit', 'View', 'Window']));
      } finally {
        await app.close();
        await sim.close();
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});

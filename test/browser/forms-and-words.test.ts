// Forms and words (issue 25), in Debian's Chromium over the headless host and the simulator:
// every error of the brand form at once beside its own field with the focus on the first; no
// code, endpoint or zod phrase reaches a person (codes behind Details); sign-in tells an
// unreachable service from a refused key, a locked address looks locked and the engine runs
// on the address typed; Settings fits the window with its Appearance label outside the
// control; a failed brand's card gives one instruction and a Retry with the same sources; a
// folder no file manager can open is shown as a path to copy.
import { describe, expect, test } from 'vitest';
import { KEY } from '../bridge/harness.ts';
import { startSimulator } from '../../simulator/index.ts';
import type { Page } from '@playwright/test';
import { chromiumMissing, expectAccessible, openWindow, screenshot } from './window-harness.ts';

/** The id of the element that has the focus (this file is typed for Node, without the DOM). */
function focusedId(page: Page): Promise<string | undefined> {
  return page.evaluate(
    () =>
      (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document
        .activeElement?.id,
  );
}

/** How long a poll waits for the window (a loaded machine is slow; never a fixed sleep). */
const WAIT = { timeout: 15_000 };

/** Words that belong to the machinery, never to a sentence for a person. */
const INTERNAL =
  /[A-Z]{2,}_[A-Z_]+|\bE[A-Z]{4,}\b|\b(GET|POST|PUT|DELETE) \/|Too small|Too big|expected (number|string)|>=|<=/;

describe.skipIf(chromiumMissing !== null)(
  `forms and words ${chromiumMissing ?? ''}`,
  { timeout: 90_000 },
  () => {
    test('the brand form shows every error at once beside its own field, and focuses the first', async () => {
      const { page } = await openWindow();
      await page.getByRole('button', { name: 'New brand' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Website').fill('https://fresh-roast.example.com');
      await dialog
        .getByLabel('PDFs and files')
        .fill('https://fresh-roast.example.com/a.pdf\nhttp://fresh-roast.example.com/guide.pdf');
      await dialog.getByLabel('Social profile').fill('instagram.com/freshroast');
      await dialog.getByRole('button', { name: 'Create brand' }).click();

      const pdfs = dialog.locator('#nb-pdfs-msg');
      const social = dialog.locator('#nb-instagram-msg');
      await expect(pdfs.textContent()).resolves.toMatch(/Line 2: .*https:\/\/ \(not http:\/\/\)/);
      await expect(social.textContent()).resolves.toMatch(
        /social profile must be a full link, with https:\/\/ at the start/,
      );
      // The website is fine: no error under it (the PDF's once appeared there).
      expect(await dialog.locator('#nb-website-msg').count()).toBe(0);
      await expect(dialog.getByLabel('Website').getAttribute('aria-invalid')).resolves.toBe(
        'false',
      );
      // Focus on the first field in error, which names its message.
      await expect.poll(() => focusedId(page), WAIT).toBe('nb-pdfs');
      await expect(
        dialog.getByLabel('PDFs and files').getAttribute('aria-describedby'),
      ).resolves.toBe('nb-pdfs-msg');
      await expectAccessible(page, 'create-brand-errors');
      await screenshot(page, 'create-brand-errors');

      // What only the engine can see (a file that is not there) lands beside its field too.
      await dialog.getByLabel('PDFs and files').fill('/nowhere/guidelines.pdf');
      await dialog.getByLabel('Social profile').fill('');
      await dialog.getByRole('button', { name: 'Create brand' }).click();
      await expect.poll(() => pdfs.textContent(), WAIT).toMatch(/no such file/);
      expect(await dialog.locator('#nb-website-msg').count()).toBe(0);
      await expect.poll(() => focusedId(page), WAIT).toBe('nb-pdfs');
    });

    test('no internal text reaches a person: zod words, service codes and edit operations in plain words, codes behind Details', async () => {
      const { page, bridge } = await openWindow();
      // A failed brand: one instruction; its code only inside Details.
      const failed = page.getByRole('article', { name: 'Old Orchard' });
      await failed.waitFor();
      const visible = await failed.innerText();
      expect(visible).not.toMatch(INTERNAL);
      await failed.getByText('Details').click();
      await expect.poll(() => failed.innerText(), WAIT).toContain('SCRAPE_FAILED');

      // Settings: a number the engine refuses, said with the field's name.
      await page.getByRole('link', { name: 'Settings' }).click();
      const versions = page.getByLabel('Brand Skill versions kept');
      await versions.fill('0');
      await versions.press('Enter');
      await versions.blur();
      const message = page.locator('#s-versions-msg');
      await expect
        .poll(() => message.textContent(), WAIT)
        .toMatch(/Brand Skill versions kept must be 1 or more\./);
      expect(await message.textContent()).not.toMatch(INTERNAL);
      await expect(versions.getAttribute('aria-invalid')).resolves.toBe('true');

      // A Brand Edit's change says what happens to it, not the service's operation name.
      const northwind = ((await bridge.ok('status')).brands as { id: string; name: string }[]).find(
        (b) => b.name === 'Northwind Coffee',
      )?.id as string;
      await bridge.sim.control.seedEdit({
        brandId: northwind,
        status: 'awaiting_approval',
        colorHex: '#c2410c',
      });
      await bridge.ok('syncNow');
      // The Brand Skill's versions on disk, said as a count of a limit.
      await page.goto(`${bridge.host.origin}/#/brand/${northwind}/skill`);
      const kept = page.locator('span', { hasText: /^Versions kept$/ }).locator('+ span');
      await kept.waitFor({ timeout: 20_000 });
      await expect(kept.textContent()).resolves.toMatch(/^\d+ of at most \d+$/);
      await page.goto(`${bridge.host.origin}/#/brand/${northwind}/edits`);
      const change = page.locator('.change .what').first();
      await change.waitFor({ timeout: 20_000 });
      const said = (await change.textContent()) ?? '';
      expect(said).toMatch(/\b(changed|added|removed)$/);
      expect(said).not.toMatch(/replace|\bset\b/);
    });

    test('sign-in tells an unreachable service from a refused key; a fixed address is locked and no other is taken', async () => {
      const { page, bridge } = await openWindow({ signedIn: false });
      await page.getByRole('heading', { name: 'Welcome to Brand Sync' }).waitFor();
      // The address is fixed for this run (the host was started with it): locked, and why.
      const address = page.getByRole('textbox', { name: 'Service address' });
      await expect(address.isDisabled()).resolves.toBe(true);
      await expect(page.locator('#url-hint').textContent()).resolves.toMatch(
        /cannot be changed here/,
      );
      expect(await page.locator('.with-lock svg.lock').count()).toBe(1);
      await expectAccessible(page, 'sign-in-locked');
      await screenshot(page, 'sign-in-locked');

      // The key refused: said beside the key.
      await page.getByRole('textbox', { name: 'API key' }).fill('sk-wrong-key-0000');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const keyError = page.locator('#key-error');
      await expect.poll(() => keyError.textContent(), WAIT).toMatch(/refused this key/);
      expect(await page.locator('#url-error').count()).toBe(0);

      // The service unreachable: said beside the address, the key not blamed.
      bridge.sim.control.injectFault('GET /v1/credits', 'reset-before', 20);
      await page.getByRole('textbox', { name: 'API key' }).fill(KEY);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const urlError = page.locator('#url-error');
      // The client tries a few times before it calls the service unreachable.
      await urlError.waitFor({ timeout: 30_000 });
      await expect(urlError.textContent()).resolves.toMatch(/could not be reached/);
      expect(await urlError.textContent()).not.toMatch(INTERNAL);
      expect(await page.locator('#key-error').count()).toBe(0);
      bridge.sim.control.clearFaults();

      // Another address while this one is fixed is refused: the engine would stay on the old.
      const other = await startSimulator({ apiKeys: [KEY], demo: true, rateLimit: false });
      try {
        const refused = await bridge.call('signIn', { key: KEY, baseUrl: other.baseUrl });
        expect(refused.json.ok).toBe(false);
        expect(refused.json.error.code).toBe('SERVICE_FIXED');
        expect(bridge.app.baseUrl).toBe(bridge.sim.baseUrl);
      } finally {
        await other.close();
      }
    });

    test('a service address typed at sign-in is the one the engine uses', async () => {
      const { page, bridge } = await openWindow({ signedIn: false, serviceFixed: false });
      await page.getByRole('heading', { name: 'Welcome to Brand Sync' }).waitFor();
      await page.getByRole('textbox', { name: 'API key' }).fill(KEY);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // No service yet: the address is asked for beside its field, not blamed on the key.
      const urlError = page.locator('#url-error');
      await expect.poll(() => urlError.textContent(), WAIT).toMatch(/service/i);
      const address = page.getByRole('textbox', { name: 'Service address' });
      await expect.poll(() => focusedId(page), WAIT).toBe('url');
      await address.fill(bridge.sim.baseUrl);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('article', { name: 'Northwind Coffee' }).waitFor({ timeout: 20_000 });
      expect(bridge.app.baseUrl).toBe(bridge.sim.baseUrl);
      const settings = await bridge.ok('settings');
      expect(settings.baseUrl).toBe(bridge.sim.baseUrl);
    });

    test('Settings fits the window, with the Appearance label above its control and locked fields that look locked', async () => {
      const { page } = await openWindow();
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('radio', { name: 'Dark' }).waitFor({ state: 'attached' });
      await page.getByLabel('Brand Skill versions kept').waitFor();
      // The page itself never scrolls: only its body does (inside the window).
      const overflow = () =>
        page.evaluate(() => {
          const { document, innerHeight } = globalThis as unknown as {
            document: { scrollingElement: { scrollHeight: number } | null };
            innerHeight: number;
          };
          return (document.scrollingElement?.scrollHeight ?? 0) - innerHeight;
        });
      await expect.poll(overflow, WAIT).toBeLessThanOrEqual(0);
      const legend = await page.locator('fieldset.theme legend').boundingBox();
      const control = await page.locator('fieldset.theme .segmented').boundingBox();
      expect(legend && control).toBeTruthy();
      // Entirely above the grey control, not inside it.
      expect((legend?.y ?? 0) + (legend?.height ?? 0)).toBeLessThanOrEqual(control?.y ?? 0);
      // The fixed service address: disabled, a padlock, and the reason.
      const address = page.getByRole('textbox', { name: 'Service address' });
      await expect(address.isDisabled()).resolves.toBe(true);
      expect(await page.locator('.lockable svg.lock').count()).toBeGreaterThanOrEqual(1);
      await expect(page.locator('#s-url-hint').textContent()).resolves.toMatch(
        /cannot be changed here/,
      );
      await expectAccessible(page, 'settings');
      await screenshot(page, 'settings-locked', { dark: true });
    });

    test("a failed brand's card gives one instruction and a Retry that creates it again from the same sources", async () => {
      const { page, bridge } = await openWindow();
      const website = 'https://retry-roasters.example.com';
      const first = await bridge.ok('createBrand', { website });
      const failedId = first.brandId as string;
      bridge.sim.control.finishBrand(failedId, 'SCRAPE_FAILED');
      const card = page.locator('article.brand-card', {
        has: page.locator(`a[href="#/brand/${failedId}/library"]`),
      });
      const retry = card.getByRole('button', { name: /^Retry creating / });
      await retry.waitFor({ timeout: 20_000 });
      const instruction = card.locator('.advice');
      await expect(instruction.count()).resolves.toBe(1);
      expect(await instruction.textContent()).not.toMatch(INTERNAL);
      await expectAccessible(page, 'brand-failed');
      await screenshot(page, 'brand-failed');

      // Its name on the service, read now: once the retry has made the new brand, the failed
      // one is deleted there (replaced, not left beside it).
      const failedName = bridge.sim.control.brands().find((b) => b.id === failedId)?.name;
      expect(failedName).toBeTruthy();
      await retry.click();
      // A second creation of the same sources, under a new idempotency key.
      await expect
        .poll(
          () =>
            bridge.sim.control
              .log({ route: 'POST /v1/brands' })
              .filter((e) => e.status !== null && e.status < 300).length,
          { timeout: 20_000 },
        )
        .toBe(2);
      const sends = bridge.sim.control
        .log({ route: 'POST /v1/brands' })
        .filter((e) => e.status !== null && e.status < 300);
      expect(new Set(sends.map((e) => e.idempotencyKey)).size).toBe(2);
      const madeId = sends[1]?.created?.id as string;
      expect(madeId).not.toBe(failedId);
      // The same sources: the service names both after the same website.
      const names = new Map(bridge.sim.control.brands().map((b) => [b.id, b.name]));
      expect(names.get(madeId)).toBe(failedName);
      bridge.sim.control.finishBrand(madeId);
      // The new one shows its progress on its own card, to ready.
      const again = page.locator('article.brand-card', {
        has: page.locator(`a[href="#/brand/${madeId}/library"]`),
      });
      await again.getByText('Ready').waitFor({ timeout: 30_000 });

      // The new-brand dialog offers the same Retry when the creation it follows fails.
      await page.getByRole('button', { name: 'New brand' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Website').fill('https://second-try.example.com');
      await dialog.getByRole('button', { name: 'Create brand' }).click();
      await dialog.getByText('Creating your brand').waitFor();
      const created = () =>
        bridge.sim.control
          .log({ route: 'POST /v1/brands' })
          .map((e) => e.created?.id)
          .filter((id): id is string => typeof id === 'string');
      await expect.poll(() => created().length, WAIT).toBe(3);
      bridge.sim.control.finishBrand(created()[2] as string, 'SCRAPE_FAILED');
      await dialog.getByText('could not be created').waitFor({ timeout: 20_000 });
      expect(await dialog.innerText()).not.toMatch(INTERNAL);
      await dialog.getByRole('button', { name: 'Retry' }).click();
      await dialog.getByText('analyzing the sources').waitFor({ timeout: 20_000 });
      await expect.poll(() => created().length, WAIT).toBe(4);
    });

    test('a folder no file manager can open is shown as its path, with Copy', async () => {
      const { page, bridge } = await openWindow();
      await page.getByRole('button', { name: 'Open the folder of Northwind Coffee' }).click();
      const dialog = page.getByRole('dialog', { name: 'The folder could not be opened' });
      await dialog.waitFor();
      const path = dialog.getByRole('textbox', { name: 'Folder path' });
      await expect(path.inputValue()).resolves.toBe(`${bridge.root}/Northwind Coffee`);
      await expect(dialog.textContent()).resolves.toMatch(/No file manager/);
      await expectAccessible(page, 'folder-not-opened');
      await screenshot(page, 'folder-not-opened');
      await dialog.getByRole('button', { name: 'Copy' }).click();
      // Copied, or (no clipboard for this page) the path selected with how to copy it. Either
      // one, as the window shows it: the empty status line is hidden, so asking for its text
      // before the copy had answered waited for it to appear, and a copy that then succeeded
      // never made it appear.
      await dialog
        .getByRole('button', { name: 'Copied' })
        .or(dialog.getByRole('status').filter({ hasText: /Ctrl\+C/ }))
        .waitFor();
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'detached' });
    });
  },
);

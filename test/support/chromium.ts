// Debian's Chromium driven by Playwright (its own browser download cannot work here). CI
// installs it (.ci/run); elsewhere set CHROMIUM_PATH, or the browser tests skip and say why.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or null when they can. CI must always run them. */
export const chromiumMissing: string | null =
  existsSync(chromiumPath) || process.env.CI
    ? null
    : `no Chromium at ${chromiumPath} (install Debian's chromium or set CHROMIUM_PATH)`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

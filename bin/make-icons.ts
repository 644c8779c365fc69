// Draws the app icon at every size the installers and the tray need (build/icons/NxN.png,
// renderer/public/tray.png), from the same SVG as the window's logo, with Chromium (the
// only renderer of SVG these machines are sure to have). Run by hand: `node bin/make-icons.ts`.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from '@playwright/test';

const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const svg = (
  size: number,
) => `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32">
  <rect width="32" height="32" rx="8" fill="#4f46e5"/>
  <path d="M10 12.5a6.5 6.5 0 0 1 11.3-3.2M22 19.5a6.5 6.5 0 0 1-11.3 3.2" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round"/>
  <path d="M22.6 6.4v3.8h-3.8M9.4 25.6v-3.8h3.8" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>
</svg>`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  await mkdir('build/icons', { recursive: true });
  await mkdir('renderer/public', { recursive: true });
  for (const size of SIZES) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg(size)}</body></html>`,
    );
    const targets = [path.join('build/icons', `${size}x${size}.png`)];
    if (size === 32) targets.push('renderer/public/tray.png');
    for (const file of targets) {
      await page.locator('svg').screenshot({ path: file, omitBackground: true });
    }
    await page.close();
  }
  console.log(`icons: ${SIZES.map((s) => `${s}x${s}`).join(', ')}`);
} finally {
  await browser.close();
}

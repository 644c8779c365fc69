// Draws the app icon at every size the installers need (build/icons/NxN.png) and one tray
// icon per state (renderer/public/tray/<state>.png and @2x: the mark, greyed when offline or
// signed out, with a badge for syncing, paused and needs you), from the same SVG as the
// window's logo, with Chromium (the only renderer of SVG these machines are sure to have).
// Run by hand: `npx node bin/make-icons.ts`.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { TRAY_KINDS, trayIconPath, type TrayKind } from '../main/hosts/electron/tray-state.ts';

const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const MARK = `
  <path d="M10 12.5a6.5 6.5 0 0 1 11.3-3.2M22 19.5a6.5 6.5 0 0 1-11.3 3.2" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round"/>
  <path d="M22.6 6.4v3.8h-3.8M9.4 25.6v-3.8h3.8" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>`;
const svg = (size: number, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32">${body}</svg>`;

const ACCENT = '#4f46e5';
const GREY = '#71717a';
const WHITE = 'fill="#fff"';
const tile = (fill: string): string =>
  `<rect width="32" height="32" rx="8" fill="${fill}"/>${MARK}`;
const DOT = `<circle cx="25" cy="25" r="2.6" ${WHITE}/>`;
const BARS = `<rect x="22" y="21.5" width="2.2" height="7" ${WHITE}/><rect x="25.8" y="21.5" width="2.2" height="7" ${WHITE}/>`;
const BANG = `<rect x="23.9" y="20.5" width="2.2" height="5.6" rx="1" ${WHITE}/><circle cx="25" cy="28.6" r="1.3" ${WHITE}/>`;

/** The mark on `base`, with a badge in the lower right corner cut out by a transparent ring. */
const badged = (base: string, fill: string, glyph: string): string => `
  <mask id="cut"><rect width="32" height="32" fill="#fff"/><circle cx="25" cy="25" r="9" fill="#000"/></mask>
  <g mask="url(#cut)">${tile(base)}</g>
  <circle cx="25" cy="25" r="7" fill="${fill}"/>${glyph}`;
const TRAY: Record<TrayKind, string> = {
  'in-sync': tile(ACCENT),
  syncing: badged(ACCENT, '#0284c7', DOT),
  paused: badged(ACCENT, '#52525b', BARS),
  offline: tile(GREY),
  'needs-you': badged(ACCENT, '#d97706', BANG),
  'signed-out': badged(GREY, '#d97706', BANG),
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  await mkdir('build/icons', { recursive: true });
  await mkdir('renderer/public/tray', { recursive: true });
  const draw = async (size: number, body: string, file: string): Promise<void> => {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg(size, body)}</body></html>`,
    );
    await page.locator('svg').screenshot({ path: file, omitBackground: true });
    await page.close();
  };
  for (const size of SIZES) {
    await draw(size, tile(ACCENT), path.join('build/icons', `${size}x${size}.png`));
  }
  for (const kind of TRAY_KINDS) {
    const file = path.join('renderer/public', trayIconPath(kind));
    await draw(16, TRAY[kind], file);
    await draw(32, TRAY[kind], file.replace(/\.png$/, '@2x.png'));
  }
  console.log(`icons: ${SIZES.map((s) => `${s}x${s}`).join(', ')}; tray: ${TRAY_KINDS.join(', ')}`);
} finally {
  await browser.close();
}

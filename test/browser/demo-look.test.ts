// Issue 25 in Debian's Chromium over the headless host and the simulator: the demo looks like
// a brand (Library pictures drawn, at the pixel size Details states; distinct logos; the
// "warmer" edit proposing a warm colour), brand cards' focus rings never clipped, and a
// failed brand retried leaves one card for its name.
import type { Locator, Page } from '@playwright/test';
import { describe, expect, test } from 'vitest';
import {
  brandId,
  chromiumMissing,
  expectAccessible,
  openWindow,
  screenshot,
} from './window-harness.ts';

/** What the page saw of a picture it shows: its bytes' start, decoded size and colours. */
interface Seen {
  head: number[];
  length: number;
  hash: string;
  width: number;
  height: number;
  /** Distinct colours among sampled pixels (a flat picture has one). */
  colours: number;
  /** The most frequent opaque colour, quantised to 16 levels a channel. */
  dominant: [number, number, number];
}

interface InPage {
  fetch(url: string): Promise<{ blob(): Promise<unknown> }>;
  createImageBitmap(blob: unknown): Promise<{ width: number; height: number }>;
  OffscreenCanvas: new (
    w: number,
    h: number,
  ) => {
    getContext(kind: '2d'): {
      drawImage(img: unknown, x: number, y: number): void;
      getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
    };
  };
  crypto: { subtle: { digest(alg: string, data: ArrayBuffer): Promise<ArrayBuffer> } };
}

/** Fetches the picture an <img> shows, as the page does, and decodes it there. */
async function seen(img: Locator): Promise<Seen> {
  const src = await img.evaluate((el) => (el as unknown as { currentSrc: string }).currentSrc);
  return img.page().evaluate(async (url) => {
    const g = globalThis as unknown as InPage;
    const blob = (await (await g.fetch(url)).blob()) as { arrayBuffer(): Promise<ArrayBuffer> };
    const buffer = await blob.arrayBuffer();
    const bytes = new Uint8Array(buffer);
    const digest = new Uint8Array(await g.crypto.subtle.digest('SHA-256', buffer));
    const bmp = await g.createImageBitmap(blob);
    const ctx = new g.OffscreenCanvas(bmp.width, bmp.height).getContext('2d');
    ctx.drawImage(bmp, 0, 0);
    const data = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
    const all = new Set<number>();
    const counts = new Map<number, number>();
    for (let i = 0; i < data.length; i += 4 * 7) {
      all.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
      if (data[i + 3]! < 200) continue;
      const q = ((data[i]! >> 4) << 8) | ((data[i + 1]! >> 4) << 4) | (data[i + 2]! >> 4);
      counts.set(q, (counts.get(q) ?? 0) + 1);
    }
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
    return {
      head: [...bytes.slice(0, 24)],
      length: bytes.length,
      hash: [...digest].map((b) => b.toString(16).padStart(2, '0')).join(''),
      width: bmp.width,
      height: bmp.height,
      colours: all.size,
      dominant: [((top >> 8) & 15) * 16 + 8, ((top >> 4) & 15) * 16 + 8, (top & 15) * 16 + 8],
    } as Seen;
  }, src);
}

/** The width and height a PNG's IHDR states. */
function ihdr(head: number[]): { width: number; height: number } {
  const b = Buffer.from(head);
  expect(b.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(b.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** Hue in degrees and saturation (0-1, HSL) of a #RRGGBB colour. */
function hueSat(hex: string): { hue: number; sat: number } {
  const n = Number.parseInt(hex.slice(1), 16);
  const [r, g, b] = [(n >> 16) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  const l = (max + min) / 2;
  const sat = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  let hue = 0;
  if (d !== 0) {
    if (max === r) hue = 60 * (((g - b) / d) % 6);
    else if (max === g) hue = 60 * ((b - r) / d + 2);
    else hue = 60 * ((r - g) / d + 4);
  }
  return { hue: (hue + 360) % 360, sat };
}

/** The Library item's tile opened: the size Details states and the picture it shows. */
async function openDetails(page: Page, name: string): Promise<{ stated: string; pic: Seen }> {
  const tile = page.locator(`.tile[data-name="${name}"]`);
  await tile.click();
  // The click chose this tile (a list laid out again under the pointer would take another).
  await expect
    .poll(async () => ({
      this: await tile.getAttribute('aria-selected'),
      chosen: await page.locator('.tile[aria-selected="true"]').getAttribute('data-name'),
    }))
    .toEqual({ this: 'true', chosen: name });
  const details = page.getByRole('complementary', { name: 'Item details' });
  await details.getByText(name).first().waitFor();
  const img = details.locator('img').first();
  await expect
    .poll(() => img.evaluate((el) => (el as unknown as { complete: boolean }).complete), {
      timeout: 20_000,
    })
    .toBe(true);
  // The figure Details states, by its label.
  const dims = details
    .locator('dt', { hasText: /^Dimensions$/ })
    .locator('xpath=following-sibling::dd[1]');
  await dims.waitFor();
  return { stated: ((await dims.textContent()) ?? '').trim(), pic: await seen(img) };
}

const card = (page: Page, name: string) =>
  page.getByRole('article').filter({ has: page.getByRole('heading', { name, exact: true }) });

describe.skipIf(chromiumMissing !== null)(
  `the demo looks like a brand ${chromiumMissing ?? ''}`,
  { timeout: 120_000 },
  () => {
    test('Library pictures are drawn, at exactly the pixel size Details states', async () => {
      const { page, bridge } = await openWindow();
      // The demo's first sync done (every Library mirrored): nothing lays a Library out
      // again while the test picks its tiles.
      const footer = page.getByRole('complementary').locator('.sync');
      await expect.poll(() => footer.getAttribute('data-state'), { timeout: 60_000 }).toBe('idle');
      const northwind = await brandId(bridge, 'Northwind Coffee');
      const lumen = await brandId(bridge, 'Lumen Labs');
      type Item = { id: string; name: string; width: number | null; height: number | null };
      const images = async (id: string, limit: number) =>
        (await bridge.ok('library', { brandId: id, type: 'image', limit })).items as Item[];
      const picks = [
        ...(await images(northwind, 10)).map((item) => ({ brand: northwind, item })),
        // A drawn picture of the 240 bulk items, portrait or landscape.
        ...(await images(lumen, 2)).map((item) => ({ brand: lumen, item })),
      ];
      expect(picks.length).toBeGreaterThanOrEqual(5);
      const hashes = new Set<string>();
      let current = '';
      for (const { brand, item } of picks) {
        if (brand !== current) {
          await page.goto(`${bridge.host.origin}/#/brand/${brand}/library`);
          current = brand;
        }
        const { stated, pic } = await openDetails(page, item.name);
        const size = ihdr(pic.head);
        // What Details says, what the record says, what the PNG says and what the browser
        // decoded: one size.
        expect(stated, item.name).toBe(`${size.width} × ${size.height}`);
        expect([item.width, item.height], item.name).toEqual([size.width, size.height]);
        expect([pic.width, pic.height]).toEqual([size.width, size.height]);
        expect(Math.max(size.width, size.height)).toBeLessThanOrEqual(640);
        // Drawn: gradients and shapes give many colours; a flat fill gives one.
        expect(pic.colours, `${item.name} is drawn`).toBeGreaterThan(100);
        hashes.add(pic.hash);
        if (item.name === 'Storefront at dawn.png') {
          await expectAccessible(page, 'library-drawn');
          await screenshot(page, 'library-drawn', { dark: true });
        }
      }
      expect(hashes.size).toBe(picks.length);
    });

    test('each ready demo brand has its own logo, and a card focused by keyboard shows a ring nothing clips', async () => {
      const { page, bridge } = await openWindow();
      // The two ready demo brands' logos arrive with their Brand Skills.
      const logos = async () =>
        ((await bridge.ok('status')).brands as { name: string; logo: unknown }[]).filter(
          (b) => b.logo !== null,
        );
      await expect.poll(async () => (await logos()).length, { timeout: 30_000 }).toBe(2);
      const withLogo = await logos();
      await page.goto(`${bridge.host.origin}/#/brands`);
      const seenLogos: Seen[] = [];
      for (const b of withLogo) {
        const img = card(page, b.name).locator('.cover img');
        await expect
          .poll(() => img.evaluate((el) => (el as unknown as { complete: boolean }).complete), {
            timeout: 20_000,
          })
          .toBe(true);
        const logo = await seen(img);
        expect(logo.colours, `${b.name}'s logo is drawn`).toBeGreaterThan(20);
        seenLogos.push(logo);
      }
      expect(new Set(seenLogos.map((l) => l.hash)).size).toBe(seenLogos.length);
      const dominant = new Set(seenLogos.map((l) => l.dominant.join(',')));
      expect(dominant.size, 'the logos differ in their main colour').toBe(seenLogos.length);

      // Keyboard focus on a card: a ring around it, outside its clipping, within every
      // box that scrolls or clips above it, and standing out from the ground around it.
      const first = withLogo[0]!.name;
      await page.getByRole('button', { name: 'New brand' }).focus();
      const name = card(page, first).getByRole('link', { name: first, exact: true });
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Tab');
        if (
          await name.evaluate(
            (el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement,
          )
        )
          break;
      }
      expect(
        await name.evaluate(
          (el) => el === (el.ownerDocument as unknown as { activeElement: unknown }).activeElement,
        ),
        'Tab reaches the card',
      ).toBe(true);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForFunction((s) => {
          const d = (
            globalThis as unknown as {
              document: { documentElement: { dataset: Record<string, string> } };
            }
          ).document;
          return d.documentElement.dataset.theme === s;
        }, scheme);
        // The ring follows focus once the style is recomputed: wait for it, then measure.
        await expect
          .poll(() =>
            card(page, first).evaluate(
              (el) =>
                (
                  globalThis as unknown as {
                    getComputedStyle(e: unknown): { outlineStyle: string };
                  }
                ).getComputedStyle(el).outlineStyle,
            ),
          )
          .toBe('solid');
        const ring = await card(page, first).evaluate((el) => {
          type Box = { left: number; top: number; right: number; bottom: number };
          type El = {
            parentElement: El | null;
            getBoundingClientRect(): Box;
            clientLeft: number;
            clientTop: number;
            clientWidth: number;
            clientHeight: number;
          };
          const g = globalThis as unknown as {
            getComputedStyle(e: unknown): Record<string, string>;
          };
          const style = g.getComputedStyle(el);
          const width = Number.parseFloat(style.outlineWidth ?? '0');
          const grow = width + Number.parseFloat(style.outlineOffset ?? '0');
          const box = (el as unknown as El).getBoundingClientRect();
          const outer = {
            left: box.left - grow,
            top: box.top - grow,
            right: box.right + grow,
            bottom: box.bottom + grow,
          };
          const clipped: string[] = [];
          let ground = 'rgba(0, 0, 0, 0)';
          for (let p = (el as unknown as El).parentElement; p; p = p.parentElement) {
            const ps = g.getComputedStyle(p);
            if (ground === 'rgba(0, 0, 0, 0)' && ps.backgroundColor !== 'rgba(0, 0, 0, 0)')
              ground = ps.backgroundColor!;
            if (ps.overflowX === 'visible' && ps.overflowY === 'visible') continue;
            const r = p.getBoundingClientRect();
            const clip = {
              left: r.left + p.clientLeft,
              top: r.top + p.clientTop,
              right: r.left + p.clientLeft + p.clientWidth,
              bottom: r.top + p.clientTop + p.clientHeight,
            };
            if (
              outer.left < clip.left ||
              outer.top < clip.top ||
              outer.right > clip.right ||
              outer.bottom > clip.bottom
            )
              clipped.push(`${(p as unknown as { className: string }).className}`);
          }
          return { style: style.outlineStyle, width, colour: style.outlineColor, ground, clipped };
        });
        expect(ring.style, scheme).toBe('solid');
        expect(ring.width, scheme).toBeGreaterThanOrEqual(2);
        expect(ring.clipped, scheme).toEqual([]);
        expect(
          contrast(ring.colour!, ring.ground),
          `${scheme} ring on its ground`,
        ).toBeGreaterThanOrEqual(3);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await expectAccessible(page, 'brands-focused');
      await screenshot(page, 'brand-cards-focus', { dark: true });
    });

    test('the "warmer" Brand Edit proposes a warm colour', async () => {
      const { page, bridge } = await openWindow();
      const northwind = await brandId(bridge, 'Northwind Coffee');
      await page.goto(`${bridge.host.origin}/#/brand/${northwind}/edits`);
      await page.getByRole('button', { name: /Warmer primary colour/ }).click();
      const edit = page.getByRole('article');
      await edit
        .getByRole('heading', { name: 'Warmer primary colour for the autumn range' })
        .waitFor();
      const after = edit.locator('[aria-label="After"]').filter({ has: page.locator('.swatch') });
      await after.first().waitFor({ timeout: 20_000 });
      const hex = ((await after.first().locator('.mono').textContent()) ?? '').trim();
      expect(hex).toMatch(/^#[0-9A-F]{6}$/);
      const { hue, sat } = hueSat(hex);
      expect(hue < 60 || hue >= 330, `${hex} (hue ${hue.toFixed(0)}°) is warm`).toBe(true);
      expect(sat, `${hex} is a colour, not a grey`).toBeGreaterThan(0.35);
      // The swatch is painted in that colour.
      const n = Number.parseInt(hex.slice(1), 16);
      expect(
        await after
          .first()
          .locator('.swatch')
          .evaluate(
            (el) =>
              (
                globalThis as unknown as {
                  getComputedStyle(e: unknown): { backgroundColor: string };
                }
              ).getComputedStyle(el).backgroundColor,
          ),
      ).toBe(`rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`);
      await expectAccessible(page, 'edit-warmer');
    });

    test('a failed brand retried: the new creation takes its place, one card for the name', async () => {
      const { page, bridge } = await openWindow();
      const failedId = await brandId(bridge, 'Old Orchard');
      await page.goto(`${bridge.host.origin}/#/brands`);
      const cards = card(page, 'Old Orchard');
      const retry = cards.getByRole('button', { name: 'Retry creating Old Orchard' });
      await retry.waitFor({ timeout: 20_000 });
      await retry.click();
      // A new brand of the same sources is made; the failed one is deleted on the service.
      await expect
        .poll(() => bridge.sim.control.brands().filter((b) => b.name === 'Old Orchard').length, {
          timeout: 20_000,
        })
        .toBe(1);
      const [made] = bridge.sim.control.brands().filter((b) => b.name === 'Old Orchard');
      expect(made!.id).not.toBe(failedId);
      await expect
        .poll(() => cards.locator(`a[href="#/brand/${made!.id}/library"]`).count(), {
          timeout: 20_000,
        })
        .toBeGreaterThan(0);
      await expect.poll(() => cards.count()).toBe(1);
      expect(await page.locator(`a[href="#/brand/${failedId}/library"]`).count()).toBe(0);
      bridge.sim.control.finishBrand(made!.id);
      await cards.getByText('Ready').waitFor({ timeout: 30_000 });
      expect(await cards.count()).toBe(1);
      // The engine no longer lists the failed one either.
      const status = await bridge.ok('status');
      const names = (status.brands as { id: string; name: string }[]).filter(
        (b) => b.name === 'Old Orchard',
      );
      expect(names.map((b) => b.id)).toEqual([made!.id]);
      await expectAccessible(page, 'brand-retried');
    });
  },
);

/** WCAG contrast ratio of two CSS rgb()/rgba() colours (the second taken as opaque). */
function contrast(a: string, b: string): number {
  const lum = (css: string) => {
    const [r, g, bl] = (css.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

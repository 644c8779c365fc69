// The window's Library at 100,000 items, in real Chromium (issue 14's target, measured here and
// never as a timed test): the brand page's first render (from a click on the brand to the first
// tile on screen: target < 300 ms), the item nodes in the DOM after it (target < 500), and the
// most item nodes seen while scrolling to the very end (bounded: the list is virtual).
// The engine, the headless host and the simulator run in this process, as `brand-sync serve`.
import { report } from './report.ts';
import { startWindowBench } from './window-host.ts';

/** What the page-side functions use of the DOM (this file is typed for Node). */
interface PageElement {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  getAttribute(name: string): string | null;
}
interface PageGlobals {
  location: { hash: string };
  document: {
    querySelector(selector: string): PageElement | null;
    querySelectorAll(selector: string): { length: number };
    getElementsByTagName(name: string): { length: number };
  };
  requestAnimationFrame(callback: (time: number) => void): number;
}

const ITEMS = Number(process.env.WINDOW_BENCH_ITEMS ?? 100_000);
let brandId = '';
const bench = await startWindowBench('window-library', async (sim) => {
  const brand = await sim.control.seedBrand({ name: 'Big Library' });
  sim.control.seedLibrary(brand.id, { bulk: { count: ITEMS } });
  brandId = brand.id;
});
if (bench === null) process.exit(0);
const { host, browser } = bench;
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(host.url);
  const mirrorStart = Date.now();
  // The mirror fills in the background; the page asks the status until it holds every item.
  for (;;) {
    const items = await page.evaluate(async (id) => {
      const r = await fetch('/api/status', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      const doc = (await r.json()) as {
        data: { brands: { id: string; library: { items: number } }[] };
      };
      return doc.data.brands.find((b) => b.id === id)?.library.items ?? 0;
    }, brandId);
    if (items >= ITEMS) break;
    if (Date.now() - mirrorStart > 300_000)
      throw new Error(`the mirror holds ${items} of ${ITEMS} after 5 min`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const mirrorMs = Date.now() - mirrorStart;

  await page.getByRole('link', { name: 'Big Library' }).first().waitFor();
  const runs: number[] = [];
  for (let run = 0; run < 5; run++) {
    // A fresh page each run: the first Library page is asked for, not taken from memory.
    await page.goto(`${host.origin}/#/brands`);
    await page.reload();
    await page.getByRole('heading', { name: 'Big Library' }).waitFor();
    const ms = await page.evaluate(async (id) => {
      const start = performance.now();
      const { location, document, requestAnimationFrame } = globalThis as unknown as PageGlobals;
      location.hash = `#/brand/${id}/library`;
      for (;;) {
        if (document.querySelector('.tile img, .tile .placeholder'))
          return performance.now() - start;
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
    }, brandId);
    runs.push(ms);
  }
  const itemNodes = await page.locator('.tile').count();
  const allNodes = await page.evaluate(
    () => (globalThis as unknown as PageGlobals).document.getElementsByTagName('*').length,
  );

  // Scroll to the end: pages load as the list nears its end; the DOM stays the same size.
  let maxTiles = itemNodes;
  const scrollStart = Date.now();
  for (let step = 0; step < 5000; step++) {
    const done = await page.evaluate(() => {
      const { document } = globalThis as unknown as PageGlobals;
      const list = document.querySelector('.vlist');
      if (!list) return true;
      list.scrollTop = list.scrollHeight;
      const complete = document.querySelector('.library')?.getAttribute('data-complete') === 'true';
      return complete && list.scrollTop + list.clientHeight >= list.scrollHeight - 2;
    });
    await page.waitForTimeout(30);
    maxTiles = Math.max(maxTiles, await page.locator('.tile').count());
    if (done && step > 3) {
      const loaded = await page.evaluate(
        () => (globalThis as unknown as PageGlobals).document.querySelectorAll('.tile').length,
      );
      maxTiles = Math.max(maxTiles, loaded);
      break;
    }
  }
  const scrollMs = Date.now() - scrollStart;
  const lastTile = await page.locator('.tile').last().getAttribute('title');
  runs.sort((a, b) => a - b);
  report('window-library', {
    items: ITEMS,
    mirrorFillMs: mirrorMs,
    firstRenderMs: {
      median: runs[2] ?? null,
      best: runs[0] ?? null,
      worst: runs[4] ?? null,
      targetMs: 300,
    },
    itemNodesAfterFirstRender: itemNodes,
    itemNodesTarget: 500,
    elementsInDocument: allNodes,
    scrollToEnd: { ms: scrollMs, maxItemNodes: maxTiles, lastItemTitle: lastTile ?? null },
    met: (runs[2] ?? Infinity) < 300 && itemNodes < 500 && maxTiles < 500,
  });
} finally {
  await bench.close();
}

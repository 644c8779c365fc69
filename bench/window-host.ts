// What the window benches share: the engine, the headless host and the simulator in this
// process (as `brand-sync serve`), and the same Chromium with the same switches as the browser
// tests. Null, after saying why, where Chromium or the built renderer is missing.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { AppRuntime } from '../main/engine/app/app-runtime.ts';
import { startHeadlessHost, type HeadlessHost } from '../main/hosts/headless/index.ts';
import { startSimulator, type Simulator } from '../simulator/index.ts';
import { chromiumPath, launchChromium } from '../test/support/chromium.ts';

export interface WindowBench {
  sim: Simulator;
  app: AppRuntime;
  host: HeadlessHost;
  browser: Browser;
  /** The engine's data dir and sync root live under it. */
  dir: string;
  close(): Promise<void>;
}

/** `seed` fills the simulator before the engine starts (its first listing sees the brands). */
export async function startWindowBench(
  name: string,
  seed: (sim: Simulator) => Promise<void>,
): Promise<WindowBench | null> {
  const renderer = path.resolve('dist/renderer');
  if (!existsSync(chromiumPath) || !existsSync(path.join(renderer, 'index.html'))) {
    console.log(
      `${name}: skipped (needs ${chromiumPath} and a built renderer: npm run build:renderer)`,
    );
    return null;
  }
  const key = `sk-${name}-bench`;
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  const sim = await startSimulator({ apiKeys: [key], rateLimit: false });
  await seed(sim);
  const app = await AppRuntime.start({
    dataDir: path.join(dir, 'data'),
    root: path.join(dir, 'root'),
    baseUrl: sim.baseUrl,
    credentials: { kind: 'api-key', secret: key, source: 'environment' },
    host: { kind: 'browser' },
  });
  const host = await startHeadlessHost({ app, port: 0, rendererDir: renderer });
  const browser = await launchChromium();
  return {
    sim,
    app,
    host,
    browser,
    dir,
    async close() {
      await browser.close();
      await host.close();
      await app.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

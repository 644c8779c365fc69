// The built renderer in a real Chromium: it loads from dist/renderer with relative paths
// (as both hosts serve it), mounts, and, served by a plain file server with no bridge behind
// it, says that Brand Sync is not answering instead of a blank page. `npm test` builds it first.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumMissing, launchChromium } from '../support/chromium.ts';

const dist = path.resolve('dist/renderer');
const types: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
};

describe.skipIf(chromiumMissing !== null)(`renderer in Chromium ${chromiumMissing ?? ''}`, () => {
  let server: Server;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(path.join(dist, 'index.html'))) {
      throw new Error('dist/renderer is not built: run `npm run build:renderer` (npm test does)');
    }
    server = createServer((req, res) => {
      const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      const file = path.join(dist, rel === '/' ? 'index.html' : rel);
      if (!file.startsWith(dist) || !existsSync(file)) return void res.writeHead(404).end();
      res.writeHead(200, {
        'content-type': types[path.extname(file)] ?? 'application/octet-stream',
      });
      res.end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  test('mounts, and says so when no engine answers', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) {
        errors.push(m.text());
      }
    });
    page.on('pageerror', (e) => void errors.push(e.message));
    await page.goto(`${origin}/`);
    await page.getByRole('heading', { name: 'Brand Sync is not answering' }).waitFor();
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});

// A headless machine can use an OAuth access token from the environment: it is sent as
// `Authorization: Bearer`, never as x-api-key, and never printed.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCli } from '../support/run-cli.ts';

const TOKEN = 'oauth-access-token-3b9d';
let server: Server;
let baseUrl: string;
let dir: string;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'access-token-'));
  server = createServer((req, res) => {
    seen.push(req.headers);
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/v1/credits') && req.headers.authorization === `Bearer ${TOKEN}`) {
      res.end(JSON.stringify({ data: { balance: 42, unlimited: false } }));
    } else if (req.url?.startsWith('/v1/workspaces')) {
      res.end(
        JSON.stringify({
          data: { workspaces: [{ id: null, name: 'Personal', is_personal: true }] },
        }),
      );
    } else {
      res.statusCode = 401;
      res.end(JSON.stringify({ error: { code: 'UNAUTHORIZED', status: 401, message: 'no' } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

test('BRAND_SYNC_ACCESS_TOKEN is sent as a Bearer token', async () => {
  const run = await runCli(['credits', '--json'], {
    HOME: dir,
    BRAND_SYNC_BASE_URL: baseUrl,
    BRAND_SYNC_DATA_DIR: path.join(dir, 'data'),
    BRAND_SYNC_ACCESS_TOKEN: TOKEN,
  });
  expect(run.stderr).not.toContain(TOKEN);
  expect(run.stdout).not.toContain(TOKEN);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('42');
  const credits = seen.filter((h) => h.authorization !== undefined || h['x-api-key'] !== undefined);
  expect(credits.length).toBeGreaterThan(0);
  for (const headers of credits) {
    expect(headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(headers['x-api-key']).toBeUndefined();
  }
});

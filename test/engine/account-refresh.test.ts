// The account refresh lists the workspaces and their credits: a personal workspace the
// service reports with an ID of its own is still one row (the personal one), not two.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { refreshAccountKind } from '../../main/engine/account/account-refresh.ts';
import { createApiClient, RateGate } from '../../main/engine/api/index.ts';
import { Engine } from '../../main/engine/core/engine.ts';
import { runJobNow } from '../../main/engine/queue/run-job-now.ts';
import { creditDocs } from '../../main/engine/views/app-status.ts';

let server: Server;
let dir: string;
let baseUrl: string;
const asked: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'account-refresh-'));
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/v1/workspaces') {
      return void res.end(
        JSON.stringify({
          data: {
            workspaces: [
              { id: 'personal-7f2', name: 'Ada Lovelace', is_personal: true },
              { id: 'team-31a', name: 'Studio', is_personal: false },
            ],
          },
        }),
      );
    }
    if (url.pathname === '/v1/credits') {
      const ws = url.searchParams.get('workspaceId');
      return void res.end(
        JSON.stringify({ data: { balance: ws === 'team-31a' ? 400 : 12, unlimited: false } }),
      );
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ error: { code: 'NOT_FOUND', status: 404, message: 'no' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

test('a personal workspace reported with an ID is one row, the personal one', async () => {
  const client = createApiClient({
    baseUrl,
    credentials: { kind: 'api-key', secret: 'sk-account' },
    rateGate: new RateGate(),
  });
  const engine = await Engine.open({
    dataDir: path.join(dir, 'data'),
    root: path.join(dir, 'root'),
    client,
  });
  try {
    engine.queue.start();
    const outcome = await runJobNow(
      engine.queue,
      refreshAccountKind,
      {},
      { key: refreshAccountKind },
    );
    expect(outcome.state).toBe('done');
    const rows = creditDocs(engine.store);
    expect(rows.filter((r) => r.personal)).toEqual([
      expect.objectContaining({ workspaceId: null, name: 'Ada Lovelace', balance: 12 }),
    ]);
    expect(rows.filter((r) => !r.personal)).toEqual([
      expect.objectContaining({ workspaceId: 'team-31a', name: 'Studio', balance: 400 }),
    ]);
    expect(rows).toHaveLength(2);
  } finally {
    await engine.close();
  }
});

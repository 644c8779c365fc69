// A DELETE re-sent after a lost answer counts a 404 as done only when the 404 says the thing
// is gone (BRAND_SKILL_NOT_FOUND, BRAND_NOT_FOUND): a 404 of a proxy or of a missing route
// says nothing about whether the first send deleted it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { createApiClient, RateGate } from '../../main/engine/api/index.ts';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** The first DELETE loses its answer (the socket closes); the next gets 404 with `code`. */
async function serve(code: string): Promise<string> {
  let n = 0;
  server = createServer((req, res) => {
    n++;
    if (n === 1) return void req.socket.destroy();
    res.statusCode = 404;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ error: { code, status: 404, message: `${code}` } }));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const client = (baseUrl: string) =>
  createApiClient({
    baseUrl,
    credentials: { kind: 'api-key', secret: 'sk-delete' },
    retry: { limit: 3, baseDelayMs: 2, maxDelayMs: 5 },
    rateGate: new RateGate(),
  });
const id = '0b8d6c1e-9a51-4f32-8e0f-3c1d2a4b5c6d';

test('beta Brand Skill: 404 BRAND_SKILL_NOT_FOUND after a lost answer is done', async () => {
  await expect(
    client(await serve('BRAND_SKILL_NOT_FOUND')).deleteBrandSkill(id),
  ).resolves.toBeUndefined();
});

test('beta Brand Skill: another 404 after a lost answer is an error, not done', async () => {
  await expect(client(await serve('NOT_FOUND')).deleteBrandSkill(id)).rejects.toMatchObject({
    status: 404,
    code: 'NOT_FOUND',
  });
});

test('brand: the same rule', async () => {
  await expect(client(await serve('BRAND_NOT_FOUND')).deleteBrand(id)).resolves.toMatchObject({
    id,
  });
  await new Promise((resolve) => server?.close(resolve));
  await expect(client(await serve('ROUTE_NOT_FOUND')).deleteBrand(id)).rejects.toMatchObject({
    status: 404,
  });
});

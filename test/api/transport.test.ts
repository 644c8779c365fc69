// The node:http exchange under the client: cancellation at every moment ends in one typed
// error and never in an uncaught socket error (vitest fails a run on any uncaught error).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { exchange, ExchangeError } from '../../main/engine/api/transport.ts';

let server: Server;
let url: URL;
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2_000).unref();
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('an already-aborted signal sends nothing and rejects with ABORT_ERR', async () => {
  const before = requests;
  const controller = new AbortController();
  controller.abort();
  const error = await exchange({
    method: 'GET',
    url,
    headers: {},
    timeoutMs: 1_000,
    signal: controller.signal,
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ExchangeError);
  expect(error).toMatchObject({ code: 'ABORT_ERR', sent: false });
  // Give a destroyed socket the chance to report an error, had one been made.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(requests).toBe(before);
});

test('an abort while waiting for the answer rejects with ABORT_ERR, marked as sent', async () => {
  const controller = new AbortController();
  const pending = exchange({
    method: 'GET',
    url: new URL('/slow', url),
    headers: {},
    timeoutMs: 5_000,
    signal: controller.signal,
  }).catch((e: unknown) => e);
  await new Promise((resolve) => setTimeout(resolve, 100));
  controller.abort();
  expect(await pending).toMatchObject({ code: 'ABORT_ERR', sent: true });
  await new Promise((resolve) => setTimeout(resolve, 50));
});

test('a normal exchange answers status and body', async () => {
  const answer = await exchange({ method: 'GET', url, headers: {}, timeoutMs: 1_000 });
  expect(answer.status).toBe(200);
  expect(answer.body.toString()).toBe('ok');
});

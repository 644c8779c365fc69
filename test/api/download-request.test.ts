// The download GET on node:http: redirects (key only on the service's origin, a limit, only
// http(s)), time limits before the answer and while the body streams, cancellation.
import { afterEach, expect, test } from 'vitest';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { createApiClient } from '../../main/engine/api/index.ts';
import { RateGate } from '../../main/engine/api/rate-gate.ts';
import {
  MAX_REDIRECTS,
  openDownload,
  type DownloadRequest,
} from '../../main/engine/api/download-request.ts';
import { ExchangeError } from '../../main/engine/api/transport.ts';
import { apiError, startScripted, tempDir as newTempDir, type ScriptedAnswer } from './helpers.ts';

const SECRET = 'sk-download-request-test-0123456789';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await (closers.pop() as () => Promise<void>)();
});

async function scripted(
  answer: Parameters<typeof startScripted>[0],
): ReturnType<typeof startScripted> {
  const server = await startScripted(answer);
  closers.push(() => server.close());
  return server;
}

/** A server that writes what `handle` does with the raw response (stalls, partial bodies). */
async function raw(
  handle: (res: http.ServerResponse, req: http.IncomingMessage) => void,
): Promise<string> {
  const server = http.createServer((req, res) => handle(res, req));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

async function tempDir(): Promise<string> {
  const dir = await newTempDir();
  closers.push(() => fs.promises.rm(dir, { recursive: true, force: true }));
  return dir;
}

/** openDownload of `origin` + `at`, with no key to carry. */
function openOn(origin: string, at: string, extra: Partial<DownloadRequest> = {}) {
  return openDownload({
    url: new URL(`${origin}${at}`),
    headers: {},
    auth: {},
    authOrigin: origin,
    ...extra,
  });
}

/** Reads a body to its end: the bytes that came, and the error that ended it, if any. */
async function readAll(
  body: AsyncIterable<unknown>,
): Promise<{ received: number; failure: unknown }> {
  let received = 0;
  try {
    for await (const chunk of body) received += (chunk as Buffer).length;
    return { received, failure: undefined };
  } catch (failure) {
    return { received, failure };
  }
}

function clientOn(baseUrl: string) {
  return createApiClient({
    baseUrl,
    credentials: { kind: 'api-key', secret: SECRET },
    rateGate: new RateGate(),
    retry: { limit: 1, rateLimitedLimit: 1, baseDelayMs: 1, maxDelayMs: 2 },
  });
}

test('redirects within the service keep the key; once the chain leaves, it never comes back', async () => {
  const other = await scripted((r): ScriptedAnswer =>
    r.url === '/hop' ? { status: 307, headers: { location: `${service.origin}/back` } } : {},
  );
  const service = await scripted((r): ScriptedAnswer => {
    if (r.url === '/v1/a') return { status: 301, headers: { location: '/v1/b' } };
    if (r.url === '/v1/b') return { status: 302, headers: { location: `${other.origin}/hop` } };
    return { headers: { 'content-type': 'application/zip' }, body: 'PK-final' };
  });
  const dir = await tempDir();
  const dest = path.join(dir, 'final.zip');
  await clientOn(service.baseUrl).downloadToFile(`${service.baseUrl}/a`, dest);
  expect(await fs.promises.readFile(dest, 'utf8')).toBe('PK-final');
  expect(service.seen.map((r) => [r.url, r.headers['x-api-key']])).toEqual([
    ['/v1/a', SECRET],
    ['/v1/b', SECRET],
    ['/back', undefined],
  ]);
  expect(other.seen.map((r) => r.headers['x-api-key'])).toEqual([undefined]);
});

test('a redirect loop ends after the limit with a clear, final error', async () => {
  const service = await scripted(() => ({ status: 302, headers: { location: '/v1/loop' } }));
  const dir = await tempDir();
  const error = await apiError(
    clientOn(service.baseUrl).downloadToFile('/v1/loop', path.join(dir, 'x.zip')),
  );
  expect(error.code).toBe('INVALID_RESPONSE');
  expect(error.message).toContain(`more than ${MAX_REDIRECTS} redirects`);
  // Not retried: the same chain would loop again.
  expect(service.seen).toHaveLength(MAX_REDIRECTS + 1);
  expect(fs.existsSync(path.join(dir, 'x.zip'))).toBe(false);
});

test('a redirect to anything but http(s) is refused, never followed', async () => {
  const service = await scripted(() => ({
    status: 302,
    headers: { location: 'file:///etc/passwd' },
  }));
  const dir = await tempDir();
  const error = await apiError(
    clientOn(service.baseUrl).downloadToFile('/v1/x', path.join(dir, 'x.zip')),
  );
  expect(error.code).toBe('INVALID_RESPONSE');
  expect(error.message).toContain('file:');
  expect(error.message).not.toContain(SECRET);
});

test('no answer within the limit is a timeout that may be retried', async () => {
  const origin = await raw(() => {
    // Never answers.
  });
  const failure = await openOn(origin, '/slow', { timeouts: { answerMs: 150 } }).catch(
    (e: unknown) => e,
  );
  expect(failure).toBeInstanceOf(ExchangeError);
  expect(failure).toMatchObject({ code: 'ETIMEDOUT', timeout: true, sent: true });
});

test('a body that goes silent fails its reader with a timeout; the bytes before it were read', async () => {
  const origin = await raw((res) => {
    res.writeHead(200, { 'content-length': '1000' });
    res.write(Buffer.alloc(400, 1)); // then silence
  });
  const answer = await openOn(origin, '/stall', { timeouts: { idleMs: 150 } });
  const { received, failure } = await readAll(answer.body);
  expect(received).toBe(400);
  expect(failure).toMatchObject({ code: 'ETIMEDOUT', timeout: true });
});

test('an abort stops the download before the answer and while the body streams', async () => {
  const origin = await raw((res, req) => {
    if (req.url === '/body') {
      res.writeHead(200, { 'content-length': '1000' });
      res.write(Buffer.alloc(10));
    }
  });
  const before = new AbortController();
  const pending = openOn(origin, '/head', { signal: before.signal }).catch((e: unknown) => e);
  setTimeout(() => before.abort(), 50);
  expect(await pending).toMatchObject({ code: 'ABORT_ERR' });

  const during = new AbortController();
  const answer = await openOn(origin, '/body', { signal: during.signal });
  const reading = readAll(answer.body);
  setTimeout(() => during.abort(), 50);
  expect((await reading).failure).toMatchObject({ code: 'ABORT_ERR' });
});

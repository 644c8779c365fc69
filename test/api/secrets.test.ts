// The credential: sent in exactly one header form, never to another host, never on signed
// uploads, and never present in an error (message, data, stack, JSON, inspection) or in the
// client object itself.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { createApiClient, RateGate, type ApiError } from '../../main/engine/api/index.ts';
import {
  apiError,
  clientFor,
  png,
  startScripted,
  startSim,
  tempDir,
  writeFile,
  type SeenRequest,
} from './helpers.ts';

const SECRET = 'sk-live-TOPSECRET-0123456789abcdef';
const BRAND = '3f2b8a4e-1c7d-4e2f-9a6b-5d4c3b2a1f0e';

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  if (dir) await fs.promises.rm(dir, { recursive: true, force: true });
});

/** Every place an error could carry the key. */
function exposed(error: ApiError): string {
  return [
    error.message,
    error.stack ?? '',
    JSON.stringify(error),
    JSON.stringify(error.data ?? null),
    inspect(error, { depth: null, showHidden: true }),
    String(error.cause ?? ''),
  ].join('\n');
}

describe('headers', () => {
  test('an API key goes in x-api-key only; a bearer token in Authorization only', async () => {
    const server = await startScripted(() => ({
      body: { data: { balance: 1, unlimited: false } },
    }));
    try {
      const gate = new RateGate();
      const keyClient = createApiClient({
        baseUrl: server.baseUrl,
        credentials: { kind: 'api-key', secret: SECRET },
        rateGate: gate,
      });
      const bearer = createApiClient({
        baseUrl: server.baseUrl,
        credentials: { kind: 'bearer', secret: SECRET },
        rateGate: gate,
      });
      await keyClient.getCredits();
      await bearer.getCredits();
      const [a, b] = server.seen as [SeenRequest, SeenRequest];
      expect(a.headers['x-api-key']).toBe(SECRET);
      expect(a.headers.authorization).toBeUndefined();
      expect(b.headers.authorization).toBe(`Bearer ${SECRET}`);
      expect(b.headers['x-api-key']).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  test('signed uploads send no credential at all', async () => {
    const server = await startScripted(() => ({
      body: { data: { id: BRAND, status: 'analyzing', existing: false } },
    }));
    try {
      const client = createApiClient({
        baseUrl: server.baseUrl,
        credentials: { kind: 'api-key', secret: SECRET },
        rateGate: new RateGate(),
      });
      const file = await writeFile(dir, 'logo.png', png(11));
      await client.uploadLogoSigned(BRAND, 'tok-1', { path: file });
      await client.uploadImageSigned('tok-2', { path: file });
      for (const request of server.seen) {
        expect(request.headers['x-api-key']).toBeUndefined();
        expect(request.headers.authorization).toBeUndefined();
        expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      }
      expect(server.seen.map((r) => r.url)).toEqual([
        `/v1/brands/${BRAND}/logo/file/signed/tok-1`,
        '/v1/images/uploads/file/signed/tok-2',
      ]);
    } finally {
      await server.close();
    }
  });

  test('a download from another host, or redirected to one, carries no key', async () => {
    const elsewhere = await startScripted(() => ({
      headers: { 'content-type': 'application/zip' },
      body: 'PK-bytes',
    }));
    const service = await startScripted((r) =>
      r.url === '/v1/redirect'
        ? { status: 302, headers: { location: `${elsewhere.origin}/z.zip` } }
        : { body: 'PK-own' },
    );
    try {
      const client = createApiClient({
        baseUrl: service.baseUrl,
        credentials: { kind: 'api-key', secret: SECRET },
        rateGate: new RateGate(),
      });
      await client.downloadToFile(`${elsewhere.origin}/direct.zip`, path.join(dir, 'direct.zip'));
      await client.downloadToFile(`${service.baseUrl}/redirect`, path.join(dir, 'redirected.zip'));
      await client.downloadToFile('/own.zip', path.join(dir, 'own.zip'));
      expect(elsewhere.seen).toHaveLength(2);
      for (const request of elsewhere.seen) expect(request.headers['x-api-key']).toBeUndefined();
      expect(service.seen.map((r) => [r.url, r.headers['x-api-key']])).toEqual([
        ['/v1/redirect', SECRET],
        ['/own.zip', SECRET],
      ]);
      expect(await fs.promises.readFile(path.join(dir, 'redirected.zip'), 'utf8')).toBe('PK-bytes');
    } finally {
      await service.close();
      await elsewhere.close();
    }
  });
});

describe('errors never carry the key', () => {
  test('401 from the simulator with a wrong key', async () => {
    const sim = await startSim();
    try {
      const error = await apiError(clientFor({ baseUrl: sim.baseUrl, key: SECRET }).getCredits());
      expect(error.code).toBe('UNAUTHORIZED');
      expect(exposed(error)).not.toContain(SECRET);
      expect(error.cause).toBeUndefined();
    } finally {
      await sim.close();
    }
  });

  test('a service that echoes the key in its message and data, and other failures', async () => {
    const server = await startScripted((r) => {
      if (r.url.startsWith('/v1/credits'))
        return {
          status: 400,
          body: {
            error: {
              code: 'ECHO',
              status: 400,
              message: `bad key ${SECRET}`,
              data: { key: SECRET },
            },
          },
        };
      if (r.url.startsWith('/v1/account'))
        return {
          status: 502,
          headers: { 'content-type': 'text/html' },
          body: `<h1>${SECRET}</h1>`,
        };
      return { body: { data: { id: SECRET, status: 7 } } };
    });
    const failures: ApiError[] = [];
    try {
      const client = createApiClient({
        baseUrl: server.baseUrl,
        credentials: { kind: 'api-key', secret: SECRET },
        rateGate: new RateGate(),
        retry: { limit: 0 },
      });
      failures.push(await apiError(client.getCredits()));
      failures.push(await apiError(client.getAccount()));
      failures.push(await apiError(client.getBrand(BRAND)));
      expect(failures.map((e) => e.code)).toEqual(['ECHO', 'HTTP_502', 'INVALID_RESPONSE']);
      expect(failures[0]?.message).toBe('bad key [redacted]');
      expect(failures[0]?.data).toEqual({ key: '[redacted]' });
    } finally {
      await server.close();
    }
    // The server is gone: network errors too.
    const offline = createApiClient({
      baseUrl: server.baseUrl,
      credentials: { kind: 'bearer', secret: SECRET },
      rateGate: new RateGate(),
      retry: { limit: 0 },
    });
    failures.push(await apiError(offline.getCredits()));
    failures.push(await apiError(offline.downloadToFile('/gone.zip', path.join(dir, 'gone.zip'))));
    expect(failures.slice(3).map((e) => e.kind)).toEqual(['network', 'network']);
    for (const error of failures) {
      expect(exposed(error)).not.toContain(SECRET);
      expect(error.cause).toBeUndefined();
    }
  });

  test('the client object does not show the key when inspected or serialised', () => {
    const client = createApiClient({
      baseUrl: 'http://127.0.0.1:9/v1',
      credentials: { kind: 'api-key', secret: SECRET },
    });
    expect(inspect(client, { depth: 6, showHidden: true })).not.toContain(SECRET);
    expect(JSON.stringify(client)).not.toContain(SECRET);
  });

  test('bad credentials or base URL are refused at creation, without echoing the key', () => {
    expect(() =>
      createApiClient({ baseUrl: 'ftp://x', credentials: { kind: 'api-key', secret: SECRET } }),
    ).toThrow(/http or https/);
    expect(() =>
      createApiClient({
        baseUrl: `http://user:${SECRET}@127.0.0.1/v1`,
        credentials: { kind: 'api-key', secret: SECRET },
      }),
    ).toThrow(/must not contain credentials/);
    try {
      createApiClient({
        baseUrl: `http://user:${SECRET}@127.0.0.1/v1`,
        credentials: { kind: 'api-key', secret: SECRET },
      });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(SECRET);
    }
    expect(() =>
      createApiClient({
        baseUrl: 'http://127.0.0.1/v1',
        credentials: { kind: 'api-key', secret: '' },
      }),
    ).toThrow(/non-empty/);
  });
});

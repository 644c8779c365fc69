// Responses: what the service may add passes through (unknown statuses, media types, fields);
// what breaks the schema is one clear INVALID_RESPONSE naming the endpoint and the field.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiClient, RateGate } from '../../main/engine/api/index.ts';
import { apiError, clientFor, startScripted, startSim, type ScriptedAnswer } from './helpers.ts';

const BRAND = '3f2b8a4e-1c7d-4e2f-9a6b-5d4c3b2a1f0e';

describe('tolerance (simulator)', () => {
  let sim: Awaited<ReturnType<typeof startSim>>;
  beforeAll(async () => {
    sim = await startSim({ manualClock: true });
  });
  afterAll(async () => {
    await sim?.close();
  });

  test('an undocumented brand status is kept, and ends a wait at once', async () => {
    const client = clientFor(sim);
    const { id } = await sim.control.seedBrand({ name: 'Odd', status: 'logo_required' });
    const brand = await client.getBrand(id);
    expect(brand.status).toBe('logo_required');
    expect(brand).toHaveProperty('updatedAt'); // a field the schema does not name is kept
    const waited = await client.waitForBrand(id, { waitSeconds: 1 });
    expect(waited.status).toBe('logo_required');
    const listed = [];
    for await (const b of client.brands()) listed.push(b.status);
    expect(listed).toContain('logo_required');
  });

  test('unknown media families and sources pass through the Library', async () => {
    const client = clientFor(sim);
    const { id } = await sim.control.seedBrand({ name: 'Future media' });
    sim.control.seedLibrary(id, {
      items: [{ type: 'hologram', source: 'dreamed', mimeType: 'model/gltf-binary' }],
    });
    const page = await client.listLibraryPage(id);
    expect(page.items[0]).toMatchObject({ type: 'hologram', source: 'dreamed' });
  });
});

describe('answers that break the schema (scripted server)', () => {
  async function answerWith(answer: ScriptedAnswer) {
    const server = await startScripted(() => answer);
    const client = createApiClient({
      baseUrl: server.baseUrl,
      credentials: { kind: 'api-key', secret: 'sk-x' },
      rateGate: new RateGate(),
      retry: { limit: 0, rateLimitedLimit: 0 },
    });
    return { client, close: () => server.close() };
  }

  test('a wrong type names the endpoint and the field', async () => {
    const { client, close } = await answerWith({ body: { data: { id: BRAND, status: 42 } } });
    try {
      const error = await apiError(client.getBrand(BRAND));
      expect(error).toMatchObject({
        code: 'INVALID_RESPONSE',
        kind: 'invalid-response',
        retryable: false,
      });
      expect(error.message).toContain('GET /brands/{id}');
      expect(error.message).toContain('data.status');
    } finally {
      await close();
    }
  });

  test('a missing required field inside a list names its index', async () => {
    const { client, close } = await answerWith({
      body: { data: { items: [{ id: BRAND }], nextCursor: null, hasMore: false } },
    });
    try {
      const error = await apiError(client.listLibraryPage(BRAND));
      expect(error.message).toContain('GET /brands/{id}/library');
      expect(error.message).toContain('data.items[0].type');
    } finally {
      await close();
    }
  });

  test('a 2xx that is not JSON, and an envelope without data', async () => {
    const notJson = await answerWith({ headers: { 'content-type': 'text/html' }, body: '<html>' });
    try {
      expect((await apiError(notJson.client.getCredits())).message).toBe(
        'Unexpected answer from GET /credits: the body is not JSON.',
      );
    } finally {
      await notJson.close();
    }
    const noData = await answerWith({ body: { balance: 3 } });
    try {
      expect((await apiError(noData.client.getCredits())).message).toContain('data:');
    } finally {
      await noData.close();
    }
  });

  test('a page claiming more without a cursor ends the iteration with an error, not a loop', async () => {
    const { client, close } = await answerWith({
      body: { data: { brands: [], hasMore: true, nextCursor: null } },
    });
    try {
      const error = await apiError(
        (async () => {
          for await (const _ of client.brands()) void _;
        })(),
      );
      expect(error.message).toContain('hasMore is true but nextCursor is missing');
    } finally {
      await close();
    }
  });

  test('GET /brands accepts `items` in place of `brands`; an error without envelope keeps its status', async () => {
    const items = await answerWith({
      body: { data: { items: [{ id: BRAND, status: 'ready' }], hasMore: false } },
    });
    try {
      await expect(items.client.listBrandsPage()).resolves.toEqual({
        items: [{ id: BRAND, status: 'ready' }],
        nextCursor: null,
        hasMore: false,
      });
    } finally {
      await items.close();
    }
    const html = await answerWith({
      status: 503,
      headers: { 'content-type': 'text/html' },
      body: '<h1>down</h1>',
    });
    try {
      expect(await apiError(html.client.getCredits())).toMatchObject({
        status: 503,
        code: 'HTTP_503',
        kind: 'server',
        retryable: true,
      });
    } finally {
      await html.close();
    }
  });

  test('Retry-After as an HTTP date is honoured too', async () => {
    const at = new Date(Date.now() + 120_000).toUTCString();
    const { client, close } = await answerWith({
      status: 429,
      headers: { 'retry-after': at },
      body: { error: { code: 'TOO_MANY_REQUESTS', status: 429, message: 'slow down' } },
    });
    try {
      const error = await apiError(client.getCredits());
      expect(error.kind).toBe('rate-limited');
      expect(error.retryAfterMs).toBeGreaterThan(100_000);
      expect(error.retryAfterMs).toBeLessThanOrEqual(120_000);
    } finally {
      await close();
    }
  });
});

// The page source the engine gives the mirror (clientPageSource: listLibraryPageRaw) checks
// only the envelope: an item the strict schema refuses (a field missing or of another type)
// is still mirrored, normalized, instead of the whole page failing; an item without an ID
// is skipped and counted; a broken envelope is still an invalid response.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createApiClient, RateGate } from '../../main/engine/api/index.ts';
import type { ApiClient } from '../../main/engine/api/index.ts';
import { clientPageSource, LibraryMirror } from '../../main/engine/library/index.ts';
import { apiError, startScripted, type ScriptedAnswer } from '../api/helpers.ts';
import { openTempStore, type TempStore } from '../store/open-temp-store.ts';

const BRAND = '3f2a7c1e-5b6d-4e8f-9a0b-1c2d3e4f5a6b';
let t: TempStore;
let server: Awaited<ReturnType<typeof startScripted>> | undefined;

beforeEach(() => {
  t = openTempStore();
});
afterEach(async () => {
  t.cleanup();
  await server?.close();
  server = undefined;
});

async function clientAnswering(answer: ScriptedAnswer): Promise<ApiClient> {
  server = await startScripted(() => answer);
  return createApiClient({
    baseUrl: server.baseUrl,
    credentials: { kind: 'api-key', secret: 'sk-raw-page' },
    rateGate: new RateGate(),
    retry: { limit: 0, rateLimitedLimit: 0 },
  });
}

test('items the strict schema refuses are mirrored as far as they go; an item without ID is counted', async () => {
  const items = [
    { id: 'a1', type: 'hologram', fileSize: 'big', width: 3.5, future: { x: 1 } },
    { id: 'a2' },
    { type: 'image', description: 'no id' },
  ];
  const client = await clientAnswering({
    body: { data: { items, nextCursor: null, hasMore: false } },
  });
  // The strict call refuses the page as a whole …
  expect((await apiError(client.listLibraryPage(BRAND))).code).toBe('INVALID_RESPONSE');
  // … the mirror's keeps what it can.
  const result = await new LibraryMirror({
    store: t.store,
    source: clientPageSource(client),
  }).syncBrand(BRAND);
  expect(result).toMatchObject({ fullPass: true, itemsRead: 3, inserted: 2, invalid: 1 });
  expect(t.store.library.get('a1')).toMatchObject({
    type: 'hologram',
    fileSize: null,
    width: null,
    raw: items[0],
  });
  expect(t.store.library.get('a2')).toMatchObject({ type: 'unknown', source: null });
});

test('a page whose envelope is broken is an invalid response naming the field', async () => {
  const client = await clientAnswering({ body: { data: { items: 'none', hasMore: false } } });
  const error = await apiError(clientPageSource(client).listLibraryPage(BRAND, {}));
  expect(error).toMatchObject({ code: 'INVALID_RESPONSE', retryable: false });
  expect(error.message).toContain('data.items');
});

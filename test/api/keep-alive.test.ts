// Keep-alive connections and requests that may not be sent twice: a one-shot call (an image
// edit bills credits, a signed upload's token is single-use) never rides a pooled
// connection, and a pooled connection found closed before anything of a request left is
// not an uncertain send: the request goes again at once on a fresh connection.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { agents } from '../../main/engine/api/transport.ts';
import { apiError, clientFor, startSim } from './helpers.ts';

type Sim = Awaited<ReturnType<typeof startSim>>;
let sim: Sim;

beforeAll(async () => {
  sim = await startSim({ speed: 1000, rateLimit: false });
});
afterAll(async () => {
  await sim?.close();
});

/** The idle pooled connections to the simulator. */
function pooled(): Socket[] {
  const port = new URL(sim.baseUrl).port;
  return Object.entries(agents['http:'].freeSockets)
    .filter(([name]) => name.includes(`:${port}:`))
    .flatMap(([, sockets]) => (sockets ?? []) as Socket[]);
}

describe('keep-alive connections', () => {
  test('calls share a pooled connection; an image edit takes one of its own', async () => {
    const client = clientFor(sim);
    const { id: brandId } = await sim.control.seedBrand({ name: 'Pool' });
    const [imageId] = sim.control.seedLibrary(brandId, { items: [{ type: 'image' }] }).ids as [
      string,
    ];
    await client.getCredits();
    await client.getCredits();
    await client.editImage(imageId, { prompt: 'warmer light', brandSessionId: brandId });
    await client.getCredits();
    const credits = sim.control.log({ route: 'GET /v1/credits' }).map((e) => e.connection);
    const [edit] = sim.control.log({ route: 'POST /v1/images/{id}/edit' });
    expect(new Set(credits).size).toBe(1);
    expect(edit?.connection).toBeDefined();
    expect(credits).not.toContain(edit?.connection);
  });

  test('a pooled connection closed before the request left: sent again at once on a fresh one, and not taken as uncertain', async () => {
    const client = clientFor(sim);
    await client.getCredits();
    const [socket] = pooled();
    expect(socket).toBeDefined();
    // Our side of the idle connection closes while it is still in the pool: the next request
    // is handed a connection that cannot carry a byte.
    socket?.end();
    const before = sim.control.log({ route: 'DELETE /v1/brands/{id}' }).length;
    // No such brand: only a send that may have been processed turns a 404 into "deleted"
    // (a retried DELETE), so the 404 must come back as it is.
    const error = await apiError(client.deleteBrand(randomUUID()));
    expect(error).toMatchObject({ status: 404, code: 'BRAND_NOT_FOUND' });
    const sends = sim.control.log({ route: 'DELETE /v1/brands/{id}' }).slice(before);
    expect(sends).toHaveLength(1);
  });
});

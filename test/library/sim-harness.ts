// The simulator on port 0 (no rate limit, manual clock) and the real API client against it.
import { randomBytes } from 'node:crypto';
import { startSimulator } from '../../simulator/index.ts';
import type { Simulator, SimulatorOptions } from '../../simulator/index.ts';
import { createApiClient, RateGate } from '../../main/engine/api/index.ts';
import type { ApiClient } from '../../main/engine/api/index.ts';

export const libraryRoute = 'GET /v1/brands/{id}/library';

export interface SimHarness {
  sim: Simulator;
  client: ApiClient;
  close: () => Promise<void>;
}

export async function startSimHarness(options: SimulatorOptions = {}): Promise<SimHarness> {
  const key = `sk-test-${randomBytes(12).toString('hex')}`;
  const sim = await startSimulator({
    apiKeys: [key],
    rateLimit: false,
    manualClock: true,
    ...options,
  });
  const client = createApiClient({
    baseUrl: sim.baseUrl,
    credentials: { kind: 'api-key', secret: key },
    // No client-side retries: the queue and the mirror's own recovery are under test.
    retry: { limit: 0, rateLimitedLimit: 0 },
    rateGate: new RateGate(),
    timeoutMs: 10_000,
  });
  return { sim, client, close: () => sim.close() };
}

/** Library requests the simulator answered for this brand. */
export function libraryRequests(sim: Simulator, brandId: string): number {
  return sim.control.log({ route: libraryRoute }).filter((entry) => entry.path.includes(brandId))
    .length;
}

// The retry rules of the interface document, each shown on the simulator's request log:
// uncertain creations re-sent with the same key and body, the per-key 429 gate, GETs
// retried, non-idempotent calls not re-sent, waits that poll again, exports re-requested
// only when retryable, and cancellation.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fs from 'node:fs';
import { RateGate, rateGateFor } from '../../main/engine/api/index.ts';
import {
  apiError,
  clientFor,
  png,
  simulatorClock,
  startSim,
  tempDir,
  writeFile,
} from './helpers.ts';
import { DEFAULT_DURATIONS } from '../../simulator/state.ts';
import { SECOND_LOOK_MS } from '../../main/engine/api/wait.ts';

type Sim = Awaited<ReturnType<typeof startSim>>;
let sim: Sim;
let dir: string;
let site = 0;
const website = (): string => `https://retry-${++site}-${Date.now()}.example.com`;

beforeAll(async () => {
  sim = await startSim({ speed: 1000, rateLimit: false });
  dir = await tempDir();
});
afterAll(async () => {
  await sim?.close();
  if (dir) await fs.promises.rm(dir, { recursive: true, force: true });
});

describe('uncertain creations', () => {
  test.each(['reset-after', '5xx-after'] as const)(
    'POST /brands answered by %s is re-sent with the same key and body: one brand',
    async (fault) => {
      const client = clientFor(sim);
      const brandsBefore = sim.control.brands().length;
      sim.control.injectFault('POST /v1/brands', fault);
      let keySeenBeforeSend: boolean | undefined;
      const created = await client.createBrand(
        { sources: [{ kind: 'website', url: website() }] },
        {
          onKey: (key) => {
            keySeenBeforeSend = sim.control
              .log({ route: 'POST /v1/brands' })
              .every((e) => e.idempotencyKey !== key);
          },
        },
      );
      expect(keySeenBeforeSend).toBe(true);
      const sends = sim.control
        .log({ route: 'POST /v1/brands' })
        .filter((e) => e.idempotencyKey === created.idempotencyKey);
      expect(sends.map((e) => e.outcome)).toEqual([fault, 'replayed']);
      expect(sends.filter((e) => e.created?.kind === 'brand')).toHaveLength(1);
      expect(sends[0]?.created?.id).toBe(created.id);
      expect(sim.control.brands().length).toBe(brandsBefore + 1);
    },
  );

  test('POST /brand-skills answered by a reset is re-sent with the same key: one job', async () => {
    const client = clientFor(sim);
    sim.control.injectFault('POST /v1/brand-skills', 'reset-after');
    const job = await client.createBrandSkill({ sources: [{ kind: 'website', url: website() }] });
    const sends = sim.control
      .log({ route: 'POST /v1/brand-skills' })
      .filter((e) => e.idempotencyKey === job.idempotencyKey);
    expect(sends.map((e) => e.outcome)).toEqual(['reset-after', 'replayed']);
    expect(sends.filter((e) => e.created !== null)).toHaveLength(1);
  });

  test('each new creation gets a fresh key; a given key is reused as it is', async () => {
    const client = clientFor(sim);
    const a = await client.createBrand({ sources: [{ kind: 'website', url: website() }] });
    const b = await client.createBrand({ sources: [{ kind: 'website', url: website() }] });
    expect(a.idempotencyKey).not.toBe(b.idempotencyKey);
    const prepared = client.prepareBrandCreation({
      sources: [{ kind: 'website', url: website() }],
    });
    const first = await client.sendBrandCreation(prepared);
    const again = await client.sendBrandCreation(prepared); // a later process re-sending a persisted creation
    expect(again.id).toBe(first.id);
  });

  test('an uncertain image edit is not re-sent: it would start (and bill) a second edit', async () => {
    const client = clientFor(sim);
    const { id: brandId } = await sim.control.seedBrand({ name: 'Edits' });
    const [imageId] = sim.control.seedLibrary(brandId, { items: [{ type: 'image' }] }).ids as [
      string,
    ];
    sim.control.injectFault('POST /v1/images/{id}/edit', 'reset-after');
    const error = await apiError(
      client.editImage(imageId, { prompt: 'bluer sky', brandSessionId: brandId }),
    );
    expect(error).toMatchObject({ kind: 'network', uncertain: true, retryable: true });
    expect(sim.control.log({ route: 'POST /v1/images/{id}/edit' })).toHaveLength(1);
  });

  test('a signed upload whose answer is lost is not re-sent: its token is single-use', async () => {
    const client = clientFor(sim);
    const { id: brandId } = await sim.control.seedBrand({ name: 'Signed' });
    const { token } = sim.control.issueUploadToken({ kind: 'image', brandId, key: sim.key });
    sim.control.injectFault('POST /v1/images/uploads/file/signed/{token}', '5xx-after');
    const file = await writeFile(dir, 'signed.png', png(901));
    const error = await apiError(client.uploadImageSigned(token, { path: file }));
    expect(error).toMatchObject({ status: 500, uncertain: true });
    expect(sim.control.log({ route: 'POST /v1/images/uploads/file/signed/{token}' })).toHaveLength(
      1,
    );
  });

  test('an image upload whose answer is lost is re-sent: the service answers existing', async () => {
    const client = clientFor(sim);
    const { id: brandId } = await sim.control.seedBrand({ name: 'Uploads' });
    const file = await writeFile(dir, 'twice.png', png(902));
    sim.control.injectFault('POST /v1/images/uploads/file', 'reset-after');
    const result = await client.uploadImage(brandId, { path: file });
    expect(result.existing).toBe(true);
    const uploads = sim.control.uploads(brandId);
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({ id: result.id, received: 2 });
  });

  test('a DELETE whose answer is lost succeeds when the retry finds the brand gone', async () => {
    const client = clientFor(sim);
    const { id } = await sim.control.seedBrand({ name: 'Lost answer' });
    sim.control.injectFault('DELETE /v1/brands/{id}', 'reset-after');
    await expect(client.deleteBrand(id)).resolves.toMatchObject({ id });
    expect(
      sim.control.log({ route: 'DELETE /v1/brands/{id}' }).filter((e) => e.path.endsWith(id)),
    ).toHaveLength(2);
  });

  test('apply after a lost answer is re-sent and returns the applied edit', async () => {
    const client = clientFor(sim);
    const { id: brandId } = await sim.control.seedBrand({ name: 'Apply' });
    const edit = sim.control.seedEdit({ brandId, status: 'awaiting_approval' });
    sim.control.injectFault('POST /v1/brands/{id}/edits/{editId}/apply', '5xx-after');
    await expect(client.applyEdit(brandId, edit.id)).resolves.toMatchObject({
      id: edit.id,
      status: 'applied',
    });
  });
});

describe('GETs', () => {
  test('network errors and 5xx are retried with backoff until an answer', async () => {
    const client = clientFor(sim);
    sim.control.injectFault('GET /v1/credits', 'reset-before');
    sim.control.injectFault('GET /v1/credits', '5xx', 2);
    await expect(client.getCredits()).resolves.toMatchObject({ unlimited: false });
    const outcomes = sim.control
      .log({ route: 'GET /v1/credits' })
      .slice(-4)
      .map((e) => e.outcome);
    expect(outcomes).toEqual(['reset-before', '5xx', '5xx', 'processed']);
  });

  test('retries stop at the limit with the last error, marked retryable but not uncertain', async () => {
    const client = clientFor(sim, {
      retry: { limit: 2, rateLimitedLimit: 0, baseDelayMs: 1, maxDelayMs: 2 },
    });
    sim.control.injectFault('GET /v1/account', '5xx', 3);
    const error = await apiError(client.getAccount());
    expect(error).toMatchObject({ kind: 'server', retryable: true, uncertain: false });
    expect(
      sim.control
        .log({ route: 'GET /v1/account' })
        .slice(-3)
        .every((e) => e.outcome === '5xx'),
    ).toBe(true);
  });

  test('a wait=true that times out asks again while the brand is analyzing', async () => {
    // 100× real time: the 30 s analysis lasts 300 ms, each 1 s wait 10 ms, so many waits time out.
    const slow = await startSim({ speed: 100, rateLimit: false });
    try {
      const client = clientFor(slow);
      const created = await client.createBrand({ sources: [{ kind: 'website', url: website() }] });
      const seen: string[] = [];
      const brand = await client.waitForBrand(created.id, {
        waitSeconds: 1,
        pollIntervalMs: 1,
        onUpdate: (b) => seen.push(b.status),
      });
      expect(brand.status).toBe('ready');
      expect(seen.length).toBeGreaterThan(1);
      expect(seen.every((s) => s === 'analyzing')).toBe(true);
      const polls = slow.control.log({ route: 'GET /v1/brands/{id}' });
      expect(polls.length).toBe(seen.length + 1);
    } finally {
      await slow.close();
    }
  });

  test('a request over its time limit fails as TIMEOUT', async () => {
    const client = clientFor(sim, {
      timeoutMs: 50,
      retry: { limit: 0, rateLimitedLimit: 0, baseDelayMs: 1, maxDelayMs: 1 },
    });
    sim.control.setFaults('GET /v1/credits:latency=400');
    try {
      expect(await apiError(client.getCredits())).toMatchObject({
        code: 'TIMEOUT',
        kind: 'network',
        retryable: true,
      });
    } finally {
      sim.control.clearFaults();
    }
  });
});

describe('exports', () => {
  test('a failure with failure.retryable is requested again', async () => {
    const client = clientFor(sim);
    const { id } = await sim.control.seedBrand({ name: 'Export retry' });
    sim.control.nextExportOutcome({ retryable: true });
    const result = await client.exportAndWait(id, { pollIntervalMs: 1 });
    expect(result.status).toBe('ready');
    expect(result.download?.url).toBeTruthy();
    expect(
      sim.control.log({ route: 'POST /v1/brands/{id}/exports' }).filter((e) => e.path.includes(id)),
    ).toHaveLength(2);
  });

  test('a failure without failure.retryable is not requested again', async () => {
    const client = clientFor(sim);
    const { id } = await sim.control.seedBrand({ name: 'Export final' });
    sim.control.nextExportOutcome({ retryable: false });
    const result = await client.exportAndWait(id, { pollIntervalMs: 1 });
    expect(result).toMatchObject({ status: 'failed', failure: { retryable: false } });
    expect(
      sim.control.log({ route: 'POST /v1/brands/{id}/exports' }).filter((e) => e.path.includes(id)),
    ).toHaveLength(1);
  });
});

describe('following work without a long poll', () => {
  /**
   * A client on a clock that moves only when it sleeps (each wait recorded), against a
   * simulator whose clock finishes the export once `exportDone(now)` says so.
   */
  async function exportFollowed(name: string, exportDone: (now: number) => boolean) {
    const sim = await startSim({ manualClock: true, rateLimit: false });
    const waits: number[] = [];
    let now = 0;
    const clock = {
      now: () => now,
      sleep: async (ms: number) => {
        waits.push(ms);
        now += ms;
        if (exportDone(now)) await sim.control.advance(DEFAULT_DURATIONS.exportMs);
      },
    };
    const client = clientFor(sim, { clock, rateGate: new RateGate(clock) });
    const { id } = await sim.control.seedBrand({ name });
    try {
      const result = await client.exportAndWait(id);
      const looks = sim.control
        .log({ route: 'GET /v1/brands/{id}/exports/{skillId}' })
        .filter((e) => e.path.includes(id)).length;
      return { result, waits, looks };
    } finally {
      await sim.close();
    }
  }

  test('polls space out while the work lasts: a quick second look, then seconds, about a minute at most', async () => {
    // The export is done only once the client has waited ten minutes.
    const { result, waits, looks } = await exportFollowed('Slow export', (now) => now >= 600_000);
    expect(result.status).toBe('ready');
    expect(looks).toBe(waits.length + 1);
    // A second look soon (work nearly done ends at once), then 2 s, growing from there.
    expect(waits[0]).toBe(SECOND_LOOK_MS);
    expect(waits[1]).toBe(2_000);
    for (let i = 2; i < waits.length; i++) {
      expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1] as number);
    }
    expect(Math.max(...waits)).toBe(60_000);
    // Ten minutes of preparing cost a handful of looks, not one every 2 s (300).
    expect(waits.length).toBeLessThan(20);
  });

  test('an export nearly done at the first look ends at the second, well before a whole interval', async () => {
    const { result, waits, looks } = await exportFollowed('Quick export', () => true);
    expect(result.status).toBe('ready');
    expect(waits).toEqual([SECOND_LOOK_MS]);
    expect(looks).toBe(2);
  });
});

describe('the 429 gate', () => {
  test('no request with the key leaves until Retry-After passed, whichever client sends it', async () => {
    const speed = 50;
    const gated = await startSim({ speed, rateLimit: false });
    try {
      // Two clients of one key share one gate, on the simulator's clock.
      const clock = simulatorClock(gated, speed);
      const gate = new RateGate(clock);
      const a = clientFor(gated, { rateGate: gate, clock });
      const b = clientFor(gated, { rateGate: gate, clock });
      const changes: Array<number | undefined> = [];
      const off = gate.onChange((until) => changes.push(until));
      gated.control.injectFault('GET /v1/credits', '429');
      await a.getCredits();
      await b.getAccount();
      off();
      const log = gated.control.log();
      const limited = log.find((e) => e.status === 429);
      expect(limited?.retryAfter).toBe(1);
      const after = log.filter((e) => e.seq > (limited?.seq ?? Infinity));
      expect(after.length).toBeGreaterThanOrEqual(2);
      for (const entry of after)
        expect(entry.simAt).toBeGreaterThanOrEqual((limited?.simAt ?? 0) + 1000);
      expect(typeof changes[0]).toBe('number');
    } finally {
      await gated.close();
    }
  });

  test('without Retry-After the call backs off on its own and the gate stays open', async () => {
    const gate = new RateGate();
    const client = clientFor(sim, { rateGate: gate });
    const changes: unknown[] = [];
    gate.onChange((until) => changes.push(until));
    sim.control.injectFault('GET /v1/workspaces', '429-no-retry-after', 2);
    await expect(client.listWorkspaces()).resolves.toHaveLength(1);
    expect(changes).toEqual([]);
    expect(gate.pausedUntil).toBeUndefined();
    const outcomes = sim.control
      .log({ route: 'GET /v1/workspaces' })
      .slice(-3)
      .map((e) => e.outcome);
    expect(outcomes).toEqual(['429-no-retry-after', '429-no-retry-after', 'processed']);
  });

  test('one gate per key and service, found by a hash: the registry holds no key', async () => {
    const { inspect } = await import('node:util');
    const gate = rateGateFor('sk-registry-one', undefined, 'https://a.example');
    expect(rateGateFor('sk-registry-one', undefined, 'https://a.example')).toBe(gate);
    expect(rateGateFor('sk-registry-two', undefined, 'https://a.example')).not.toBe(gate);
    // A wait asked by one service does not hold the same key at another.
    expect(rateGateFor('sk-registry-one', undefined, 'https://b.example')).not.toBe(gate);
    expect(inspect(gate, { depth: 5, showHidden: true })).not.toContain('sk-registry-one');
  });

  test('a paused gate holds a waiting call until its signal aborts it', async () => {
    const gate = new RateGate();
    gate.pauseUntil(Date.now() + 60_000);
    const client = clientFor(sim, { rateGate: gate });
    const controller = new AbortController();
    const before = sim.control.log().length;
    const pending = apiError(client.getCredits({}, { signal: controller.signal }));
    controller.abort();
    expect(await pending).toMatchObject({ code: 'ABORTED', kind: 'aborted', retryable: false });
    expect(sim.control.log().length).toBe(before);
  });
});

describe('cancellation', () => {
  test('aborting a wait ends it with ABORTED', async () => {
    const manual = await startSim({ manualClock: true, rateLimit: false });
    try {
      const client = clientFor(manual);
      const { id } = await manual.control.seedBrand({ name: 'Forever', status: 'analyzing' });
      const controller = new AbortController();
      const waiting = apiError(
        client.waitForBrand(id, { signal: controller.signal, waitSeconds: 60 }),
      );
      // Abort once the held request has reached the simulator.
      while (manual.control.log({ route: 'GET /v1/brands/{id}' }).length === 0)
        await new Promise((r) => setTimeout(r, 2));
      controller.abort();
      expect(await waiting).toMatchObject({ code: 'ABORTED' });
    } finally {
      await manual.close();
    }
  });

  test('the client-wide signal cancels every call', async () => {
    const controller = new AbortController();
    const client = clientFor(sim, { signal: controller.signal });
    controller.abort();
    expect(await apiError(client.getCredits())).toMatchObject({ code: 'ABORTED' });
  });
});

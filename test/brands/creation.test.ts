// The durable brand creation against the simulator, in process: the document's retry table
// row by row (429, uncertain outcome, Brand ID received, terminal failure), the duplicate
// answer, a restart after the Brand ID arrived, a failed job whose send had no certain
// answer, staged PDFs, and deletion.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import {
  checkCreationRequest,
  CREATION_FACTS,
  deleteBrand,
  startBrandCreation,
  type BrandCreationInput,
  type BrandCreationResult,
} from '../../main/engine/brands/index.ts';
import type { Engine } from '../../main/engine/core/engine.ts';
import { runJobNow, type JobRunOutcome } from '../../main/engine/queue/index.ts';
import { createBrandKind } from '../../main/engine/brands/index.ts';
import { startHarness, until, type Harness } from './harness.ts';

const POST = 'POST /v1/brands';

/** Asks for a creation and runs its job to the end, as `brands create` does. */
async function create(
  engine: Engine,
  input: BrandCreationInput,
  follow = false,
): Promise<{ outcome: JobRunOutcome; mode: string }> {
  const request = await checkCreationRequest(input);
  const started = startBrandCreation(engine, request, { follow });
  const outcome = await runJobNow(engine.queue, createBrandKind, started.payload, started.enqueue);
  return { outcome, mode: started.mode };
}

function resultOf(outcome: JobRunOutcome): BrandCreationResult {
  if (outcome.state !== 'done')
    throw new Error(`job ended ${outcome.state}: ${JSON.stringify(outcome)}`);
  return outcome.job.result as BrandCreationResult;
}

const website = (name: string) => ({
  sources: [{ kind: 'website' as const, url: `https://${name}.example.com` }],
});

describe('brand creation (speed)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());
  afterEach(() => h.sim.control.clearFaults());

  /** The log entries of POST /brands that carried this key. */
  const sends = (key: string) =>
    h.sim.control.log({ route: POST }).filter((e) => e.idempotencyKey === key);

  test('the key and body are remembered before the first send; --wait follows to ready and announces the Skill', async () => {
    const engine = h.open();
    const changed: string[] = [];
    const off = engine.events.on(
      'brand:skill-changed',
      (e) => void changed.push(`${e.brandId}:${e.reason}`),
    );
    const { outcome, mode } = await create(
      engine,
      { ...website('first'), instructions: 'Keep it calm.' },
      true,
    );
    off();
    expect(mode).toBe('new');
    const result = resultOf(outcome);
    expect(result).toMatchObject({
      status: 'ready',
      failure: null,
      label: 'https://first.example.com',
    });
    const job = engine.store.jobs.get(outcome.state === 'done' ? outcome.job.id : -1);
    expect(job?.facts).toMatchObject({
      [CREATION_FACTS.key]: result.idempotencyKey,
      [CREATION_FACTS.brandId]: result.brandId,
      [CREATION_FACTS.body]: {
        sources: [{ kind: 'website', url: 'https://first.example.com' }],
        instructions: 'Keep it calm.',
      },
    });
    expect(sends(result.idempotencyKey).map((e) => e.outcome)).toEqual(['processed']);
    expect(engine.store.brands.get(result.brandId)?.status).toBe('ready');
    expect(changed).toEqual([`${result.brandId}:created`]);
  });

  test('429 with Retry-After: waited for, then the same key and body; one brand', async () => {
    const engine = h.open();
    h.sim.control.addFaults(`${POST}:retry-after=0`);
    h.sim.control.injectFault(POST, '429');
    const result = resultOf((await create(engine, website('throttled'))).outcome);
    const log = sends(result.idempotencyKey);
    expect(log.map((e) => e.status)).toEqual([429, 200]);
    expect(log.filter((e) => e.created).map((e) => e.created?.id)).toEqual([result.brandId]);
  });

  test('uncertain outcomes (processed, then 5xx) beyond the client retries: the job sends the same key again; one brand', async () => {
    const engine = h.open();
    // The client retries once; four answers are lost: the job runs again with its facts.
    h.sim.control.injectFault(POST, '5xx-after', 4);
    const result = resultOf((await create(engine, website('uncertain'))).outcome);
    const log = sends(result.idempotencyKey);
    expect(log.length).toBe(5);
    expect(log.slice(0, 4).every((e) => e.outcome === '5xx-after')).toBe(true);
    expect(log.filter((e) => e.created !== null)).toHaveLength(1);
    expect(log[0]?.created?.id).toBe(result.brandId);
    expect(log.at(-1)?.outcome).toBe('replayed');
  });

  test('terminal failed: the code and its group; the next attempt is a new job with a new key', async () => {
    const engine = h.open();
    const retryLater = {
      sources: [{ kind: 'website' as const, url: 'https://fail-SCRAPE_FAILED.example.com' }],
    };
    const first = resultOf((await create(engine, retryLater, true)).outcome);
    expect(first.status).toBe('failed');
    expect(first.failure).toMatchObject({ code: 'SCRAPE_FAILED', group: 'retry-later' });
    expect(first.failure?.advice).toMatch(/unchanged/);
    const again = await create(engine, retryLater, true);
    expect(again.mode).toBe('new');
    const second = resultOf(again.outcome);
    expect(second.idempotencyKey).not.toBe(first.idempotencyKey);
    expect(second.brandId).not.toBe(first.brandId);

    const fixInput = resultOf(
      (
        await create(
          engine,
          {
            sources: [
              website('pdf-rejected').sources[0]!,
              { kind: 'pdf', url: 'https://cdn.example.com/fail-PDF_SOURCE_REJECTED.pdf' },
            ],
          },
          true,
        )
      ).outcome,
    );
    expect(fixInput.failure).toMatchObject({ code: 'PDF_SOURCE_REJECTED', group: 'fix-input' });
    expect(fixInput.failure?.advice).toMatch(/^Fix the source/);

    const unknown = resultOf(
      (await create(engine, website('fail-NEW_KIND_OF_FAILURE'), true)).outcome,
    );
    expect(unknown.failure).toMatchObject({ code: 'NEW_KIND_OF_FAILURE', group: 'unknown' });
  });

  test('409 DUPLICATE_BRAND: the job fails with the matching brands; allowDuplicate creates anyway', async () => {
    const engine = h.open();
    const { id } = await h.sim.control.seedBrand({
      name: 'Twin',
      website: 'https://twin.example.com',
    });
    const { outcome } = await create(engine, website('twin'));
    expect(outcome.state).toBe('failed');
    if (outcome.state !== 'failed') return;
    expect(outcome.error.code).toBe('DUPLICATE_BRAND');
    expect(outcome.error.data).toEqual({
      brands: [expect.objectContaining({ id, name: 'Twin', url: 'https://twin.example.com' })],
    });
    const anyway = resultOf(
      (await create(engine, { ...website('twin'), allowDuplicate: true })).outcome,
    );
    expect(anyway.brandId).not.toBe(id);
  });

  test('a failed job whose send had no certain answer is run again with its key and body, not replaced', async () => {
    const engine = h.open();
    // Every attempt of the job (6, each with one client retry) loses its answer.
    h.sim.control.injectFault(POST, '5xx-after', 12);
    const first = await create(engine, website('lost-answers'));
    expect(first.outcome.state).toBe('failed');
    if (first.outcome.state !== 'failed') return;
    const key = first.outcome.job.facts[CREATION_FACTS.key] as string;
    const created = sends(key).filter((e) => e.created !== null);
    expect(created).toHaveLength(1);
    h.sim.control.clearFaults();
    const second = await create(engine, website('lost-answers'));
    expect(second.mode).toBe('retried');
    const result = resultOf(second.outcome);
    expect(result.idempotencyKey).toBe(key);
    expect(result.brandId).toBe(created[0]?.created?.id);
    expect(sends(key).at(-1)?.outcome).toBe('replayed');
  });

  test('a local PDF is staged once, its upload ID remembered; a file changed since the request fails the job', async () => {
    const engine = h.open();
    const pdf = path.join(h.dir, 'guide.pdf');
    await fs.promises.writeFile(pdf, '%PDF-1.7\n% guide\n%%EOF\n');
    const input: BrandCreationInput = {
      sources: [website('with-pdf').sources[0]!, { kind: 'pdf', path: pdf }],
    };
    const { outcome } = await create(engine, input);
    const result = resultOf(outcome);
    const facts = outcome.state === 'done' ? outcome.job.facts : {};
    const uploadId = facts[CREATION_FACTS.upload(1)];
    expect(uploadId).toEqual(expect.any(String));
    expect((facts[CREATION_FACTS.body] as { sources: unknown[] }).sources).toEqual([
      { kind: 'website', url: 'https://with-pdf.example.com' },
      { kind: 'pdf', uploadId },
    ]);
    expect(result.status).toBe('analyzing');

    const changing = path.join(h.dir, 'changing.pdf');
    await fs.promises.writeFile(changing, '%PDF-1.7\n% first\n');
    const request = await checkCreationRequest({
      sources: [website('changing').sources[0]!, { kind: 'pdf', path: changing }],
    });
    await fs.promises.writeFile(changing, '%PDF-1.7\n% second!\n');
    const started = startBrandCreation(engine, request);
    const failed = await runJobNow(engine.queue, createBrandKind, started.payload, started.enqueue);
    expect(failed.state).toBe('failed');
    if (failed.state === 'failed') expect(failed.error.code).toBe('SOURCE_FILE_CHANGED');
  });

  test('delete: the store marks the brand deleted and names the folder kept; a second delete marks it too', async () => {
    const engine = h.open();
    const { id } = await h.sim.control.seedBrand({ name: 'Leaving' });
    engine.store.brands.upsertFromService({ id, status: 'ready', name: 'Leaving' });
    engine.store.brands.setFolder(id, 'Leaving');
    const deleted = await deleteBrand(engine, id);
    expect(deleted).toEqual({ id, name: 'Leaving', folderName: 'Leaving' });
    expect(engine.store.brands.get(id)?.deletedRemotely).toBe(true);
    const again = await deleteBrand(engine, id).catch((e: unknown) => e);
    expect(again).toMatchObject({ code: 'BRAND_NOT_FOUND' });
  });
});

describe('brand creation (manual clock)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ manualClock: true, speed: undefined });
  });
  afterAll(async () => h.close());

  const STAGE = 'POST /v1/uploads';
  const HOURS_2 = 2 * 60 * 60_000;

  /**
   * Asks for a creation with a local PDF, lets its first send fail with `fault` (nothing
   * processed, or processed with the answer lost), then stops, as a laptop closed offline,
   * and moves the service's clock past the life of the staged upload.
   */
  async function heldPastStaging(
    name: string,
    fault: 'reset-before' | 'reset-after',
  ): Promise<{
    pdf: string;
    request: Awaited<ReturnType<typeof checkCreationRequest>>;
    jobId: number;
    firstKey: string;
    firstUpload: string;
  }> {
    const engine = h.open();
    const pdf = path.join(h.dir, `${name}.pdf`);
    await fs.promises.writeFile(pdf, `%PDF-1.7\n% ${name}\n%%EOF\n`);
    const request = await checkCreationRequest({
      sources: [website(name).sources[0]!, { kind: 'pdf', path: pdf }],
    });
    // Every send fails until the run is stopped (reset-after: the first one made the brand).
    h.sim.control.injectFault(POST, fault, fault === 'reset-after' ? 1 : 1000);
    if (fault === 'reset-after') h.sim.control.injectFault(POST, 'reset-before', 1000);
    const started = startBrandCreation(engine, request);
    const stop = new AbortController();
    const running = runJobNow(engine.queue, createBrandKind, started.payload, started.enqueue, {
      signal: stop.signal,
    });
    const facts = () => engine.store.jobs.get(started.job.id)?.facts ?? {};
    await until(() =>
      h.sim.control
        .log({ route: POST })
        .some((e) => e.idempotencyKey === facts()[CREATION_FACTS.key]),
    );
    stop.abort();
    expect((await running).state).toBe('halted');
    const firstKey = facts()[CREATION_FACTS.key] as string;
    const firstUpload = facts()[CREATION_FACTS.upload(1)] as string;
    await h.closeEngine();
    h.sim.control.clearFaults();
    await h.sim.control.advance(HOURS_2);
    return { pdf, request, jobId: started.job.id, firstKey, firstUpload };
  }

  test('held offline past the life of its staged PDF: the same key and body first, then staged again and sent under a new key', async () => {
    const stagedBefore = h.sim.control.log({ route: STAGE }).length;
    const held = await heldPastStaging('held-never-made', 'reset-before');
    const engine = h.open();
    const resumed = startBrandCreation(engine, held.request);
    expect(resumed.job.id).toBe(held.jobId);
    const result = resultOf(
      await runJobNow(engine.queue, createBrandKind, resumed.payload, resumed.enqueue),
    );
    const sends = h.sim.control.log({ route: POST }).filter((e) => e.outcome !== 'reset-before');
    const [replay, fresh] = sends.slice(-2);
    expect(replay).toMatchObject({
      idempotencyKey: held.firstKey,
      status: 400,
      code: 'INVALID_SOURCE',
    });
    expect(fresh?.idempotencyKey).not.toBe(held.firstKey);
    expect(fresh?.created).toEqual({ kind: 'brand', id: result.brandId });
    expect(result.idempotencyKey).toBe(fresh?.idempotencyKey);
    expect(h.sim.control.log({ route: STAGE }).length - stagedBefore).toBe(2);
    const facts = engine.store.jobs.get(held.jobId)?.facts ?? {};
    const upload = facts[CREATION_FACTS.upload(1)];
    expect(upload).toEqual(expect.any(String));
    expect(upload).not.toBe(held.firstUpload);
    expect((facts[CREATION_FACTS.body] as { sources: unknown[] }).sources[1]).toEqual({
      kind: 'pdf',
      uploadId: upload,
    });
    await h.closeEngine();
  });

  test('the first send made the brand and its answer was lost: the replay under the same key returns it, nothing staged again', async () => {
    const stagedBefore = h.sim.control.log({ route: STAGE }).length;
    const brandsBefore = h.sim.control.brands().length;
    const held = await heldPastStaging('held-made', 'reset-after');
    const engine = h.open();
    const resumed = startBrandCreation(engine, held.request);
    const result = resultOf(
      await runJobNow(engine.queue, createBrandKind, resumed.payload, resumed.enqueue),
    );
    const mine = h.sim.control
      .log({ route: POST })
      .filter((e) => e.idempotencyKey === held.firstKey);
    expect(mine[0]).toMatchObject({ outcome: 'reset-after', created: { kind: 'brand' } });
    expect(mine.at(-1)?.outcome).toBe('replayed');
    expect(result.brandId).toBe(mine[0]?.created?.id);
    expect(h.sim.control.log({ route: STAGE }).length - stagedBefore).toBe(1);
    expect(h.sim.control.brands().length).toBe(brandsBefore + 1);
    await h.closeEngine();
  });

  test('a PDF changed since the request, same size: staging it again is refused, nothing sent', async () => {
    const held = await heldPastStaging('held-changed', 'reset-before');
    const original = await fs.promises.readFile(held.pdf);
    const changed = Buffer.from(original);
    changed[changed.length - 2] = 'X'.charCodeAt(0);
    await fs.promises.writeFile(held.pdf, changed);
    const engine = h.open();
    const stagedBefore = h.sim.control.log({ route: STAGE }).length;
    const resumed = startBrandCreation(engine, held.request);
    const outcome = await runJobNow(
      engine.queue,
      createBrandKind,
      resumed.payload,
      resumed.enqueue,
    );
    expect(outcome.state).toBe('failed');
    if (outcome.state === 'failed') {
      expect(outcome.error.code).toBe('SOURCE_FILE_CHANGED');
      expect(outcome.error.message).toContain(held.pdf);
    }
    expect(h.sim.control.log({ route: STAGE }).length).toBe(stagedBefore);
    await h.closeEngine();
  });

  test('the Brand ID once received is only polled: a restart while the brand analyses resumes it', async () => {
    let engine = h.open();
    const request = await checkCreationRequest(website('restarted'));
    const started = startBrandCreation(engine, request, { follow: true });
    const stop = new AbortController();
    const running = runJobNow(engine.queue, createBrandKind, started.payload, started.enqueue, {
      signal: stop.signal,
    });
    // The brand analyses until the clock moves: wait for the Brand ID, then stop (as Ctrl-C).
    await until(
      () =>
        typeof engine.store.jobs.get(started.job.id)?.facts[CREATION_FACTS.brandId] === 'string',
    );
    stop.abort();
    expect((await running).state).toBe('halted');
    await h.closeEngine();

    engine = h.open();
    const resumed = startBrandCreation(engine, request, { follow: true });
    expect(resumed.mode).toBe('resumed');
    expect(resumed.job.id).toBe(started.job.id);
    const done = runJobNow(engine.queue, createBrandKind, resumed.payload, resumed.enqueue);
    const brandId = engine.store.jobs.get(started.job.id)?.facts[CREATION_FACTS.brandId] as string;
    const polls = () =>
      h.sim.control.log({ route: 'GET /v1/brands/{id}' }).filter((e) => e.path.includes(brandId))
        .length;
    const before = polls();
    await until(() => polls() > before);
    await h.sim.control.advance(60_000);
    const result = resultOf(await done);
    expect(result).toMatchObject({ brandId, status: 'ready' });
    const key = engine.store.jobs.get(started.job.id)?.facts[CREATION_FACTS.key];
    expect(h.sim.control.log({ route: POST }).filter((e) => e.idempotencyKey === key)).toHaveLength(
      1,
    );
  });
});

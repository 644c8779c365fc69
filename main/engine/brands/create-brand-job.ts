// The durable brand creation: one job per creation, following the document's retry table
// row by row.
// - Local PDFs are staged first; each upload ID is remembered as it arrives.
// - The Idempotency-Key and the exact body are remembered before the first send, so every
//   later send (a retry in the client, a rerun after a crash) is the same key with the same body.
// - 429: the client waits for Retry-After (and the queue, for its gate) and sends again.
// - An uncertain outcome (no answer, 5xx): the same key and body again, in the client and
//   then in later runs of the job.
// - Once a Brand ID is received it is remembered, and only polled from then on: never created again.
// - A brand that ends `failed` ends the job (done, with the failure code and its advice): the
//   next attempt is a new job with a new key.
// - Held (offline) past the life of its staged uploads: the remembered key and body go first
//   (if the first send made the brand, the service answers it); if the service says a staged
//   upload is gone, the PDFs are checked again (size and hash), staged again, and sent under
//   a new key, once per run.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { z } from 'zod';
import { duplicateBrandsOf, goneStagedUploads, isApiError, isBrandSettled } from '../api/index.ts';
import type { Brand, BrandSource, PreparedBrandCreation } from '../api/index.ts';
import type { EngineParts } from '../core/engine.ts';
import { PermanentError } from '../queue/index.ts';
import type { JobContext, JobKindHandle } from '../queue/index.ts';
import { brandFailureAdvice, type BrandFailureAdvice } from './brand-failure.ts';
import { CreationRequest, requestLabel, type LocalSource } from './creation-request.ts';

export const createBrandKind = 'brand.create';

export const CreateBrandPayload = z.object({
  request: CreationRequest,
  /** creationHash(request): the dedupe key, so that the same request resumes the same job. */
  hash: z.string().min(1),
  /** Follow the brand until it is ready or failed before the job ends. */
  follow: z.boolean().default(false),
  /**
   * A retry: the failed brand this creation stands in for. Once the new brand exists the
   * failed one is deleted on the service and forgotten here, so the two never stand side by
   * side.
   */
  replaces: z.string().min(1).optional(),
});
export type CreateBrandPayload = z.infer<typeof CreateBrandPayload>;

/** Facts the job remembers (names are part of the stored data: do not rename). */
export const CREATION_FACTS = {
  key: 'idempotencyKey',
  /** The body sent with the key: a rerun sends exactly this. */
  body: 'body',
  brandId: 'brandId',
  /** Set once the failed brand a retry replaces is gone. */
  replaced: 'replaced',
  upload: (index: number) => `upload.${index}`,
} as const;

export interface BrandCreationResult {
  brandId: string;
  status: string;
  idempotencyKey: string;
  /** The website (or first source): what the creation is called in reports. */
  label: string;
  /** The brand as last seen (after following it, or the creation answer). */
  brand: Brand;
  /** Set when the brand ended failed: its code and what to do next. */
  failure: BrandFailureAdvice | null;
}

export function createBrandKey(hash: string): string {
  return `${createBrandKind}:${hash}`;
}

export function registerCreateBrand(parts: EngineParts): JobKindHandle<CreateBrandPayload> {
  return parts.queue.register(createBrandKind, {
    payload: CreateBrandPayload,
    concurrency: 2,
    maxAttempts: 6,
    run: (job, ctx) => runCreation(parts, job.payload, ctx),
  });
}

async function runCreation(
  parts: EngineParts,
  payload: CreateBrandPayload,
  ctx: JobContext,
): Promise<BrandCreationResult> {
  const { client, store } = parts;
  let idempotencyKey = ctx.idempotencyKey(CREATION_FACTS.key);
  let brandId = stringFact(ctx, CREATION_FACTS.brandId);
  let brand: Brand;
  if (brandId === undefined) {
    let prepared = await preparedCreation(parts, payload, ctx, idempotencyKey);
    let created;
    let restaged = false;
    for (;;) {
      try {
        created = await client.sendBrandCreation(prepared, { signal: ctx.signal });
        break;
      } catch (error) {
        const gone = restaged ? undefined : goneStagedUploads(error, prepared.body);
        if (gone !== undefined) {
          // The staged uploads outlived their life: forget them, the body and the key (a
          // new body under the old key would be refused as a conflict), and stage again.
          ctx.remember({
            [CREATION_FACTS.key]: null,
            [CREATION_FACTS.body]: null,
            ...Object.fromEntries(gone.map((index) => [CREATION_FACTS.upload(index), null])),
          });
          idempotencyKey = ctx.idempotencyKey(CREATION_FACTS.key);
          prepared = await preparedCreation(parts, payload, ctx, idempotencyKey);
          restaged = true;
          continue;
        }
        const matches = duplicateBrandsOf(error);
        if (matches === undefined) throw error;
        throw new PermanentError(
          'DUPLICATE_BRAND',
          'A brand with this website already exists; creating another takes allowDuplicate.',
          { data: { brands: matches } },
        );
      }
    }
    brandId = created.id;
    ctx.remember({ [CREATION_FACTS.brandId]: brandId });
    brand = { ...created };
    store.brands.upsertFromService(brand);
  } else {
    // Received by an earlier run: poll it, never create it again.
    brand = await client.getBrand(brandId, { signal: ctx.signal });
    store.brands.upsertFromService(brand);
  }
  if (payload.replaces !== undefined && ctx.facts[CREATION_FACTS.replaced] !== true) {
    await replaceFailedBrand(parts, payload.replaces, ctx.signal);
    ctx.remember({ [CREATION_FACTS.replaced]: true });
  }
  if (payload.follow && !isBrandSettled(brand)) {
    brand = await client.waitForBrand(brandId, { signal: ctx.signal });
    store.brands.upsertFromService(brand);
  }
  if (brand.status === 'ready') {
    parts.events.emit('brand:skill-changed', { brandId, reason: 'created' });
  }
  return {
    brandId,
    status: brand.status,
    idempotencyKey,
    label: requestLabel(payload.request),
    brand,
    failure: brand.status === 'failed' ? brandFailureAdvice(brand.failure) : null,
  };
}

/**
 * The failed brand a retry stands in for: deleted on the service (already gone there is as
 * good) and forgotten here. Only a brand still failed is deleted; when the service refuses,
 * it stays, with a notice saying so, and the new brand is made all the same.
 */
async function replaceFailedBrand(
  parts: EngineParts,
  brandId: string,
  signal: AbortSignal,
): Promise<void> {
  const old = parts.store.brands.get(brandId);
  if (old === undefined || old.status !== 'failed') return;
  const name = old.name ?? 'the brand';
  try {
    await parts.client.deleteBrand(brandId, { signal });
  } catch (error) {
    if (signal.aborted) throw error;
    if (!isApiError(error) || error.code !== 'BRAND_NOT_FOUND') {
      parts.events.emit('notice', {
        level: 'warn',
        code: 'FAILED_BRAND_KEPT',
        message: `${name} was created again; the attempt that failed could not be deleted on the service, so it is still listed: delete it from its card.`,
        brandId,
      });
      return;
    }
  }
  parts.store.brands.remove(brandId);
  parts.events.emit('notice', {
    level: 'info',
    code: 'FAILED_BRAND_REPLACED',
    message: `${name}: the attempt that failed was replaced by the new one.`,
  });
}

/** The key and body of this creation: remembered ones, or made now and remembered before any send. */
async function preparedCreation(
  parts: EngineParts,
  payload: CreateBrandPayload,
  ctx: JobContext,
  idempotencyKey: string,
): Promise<PreparedBrandCreation> {
  const remembered = ctx.facts[CREATION_FACTS.body];
  if (remembered !== undefined && remembered !== null) {
    return { idempotencyKey, body: remembered as PreparedBrandCreation['body'] };
  }
  const { request } = payload;
  const sources: BrandSource[] = [];
  for (const [index, source] of request.sources.entries()) {
    if (!('path' in source)) {
      sources.push({ kind: source.kind, url: source.url } as BrandSource);
      continue;
    }
    let uploadId = stringFact(ctx, CREATION_FACTS.upload(index));
    if (uploadId === undefined) {
      await requireUnchanged(source);
      const staged = await parts.client.stageFile(
        { path: source.path, mimeType: 'application/pdf' },
        {
          signal: ctx.signal,
          ...(request.workspaceId ? { workspaceId: request.workspaceId } : {}),
        },
      );
      uploadId = staged.id;
      ctx.remember({ [CREATION_FACTS.upload(index)]: uploadId });
    }
    sources.push({ kind: source.kind, uploadId });
  }
  const prepared = parts.client.prepareBrandCreation(
    {
      sources,
      ...(request.instructions ? { instructions: request.instructions } : {}),
      ...(request.allowDuplicate ? { allowDuplicate: true } : {}),
      ...(request.workspaceId ? { workspaceId: request.workspaceId } : {}),
    },
    { idempotencyKey },
  );
  // Before the first send: a crash after it finds the body that went with the key.
  ctx.remember({ [CREATION_FACTS.body]: prepared.body });
  return prepared;
}

/** The file must still be the one the creation was asked with (same size and bytes). */
async function requireUnchanged(source: LocalSource): Promise<void> {
  const changed = (why: string): PermanentError =>
    new PermanentError(
      'SOURCE_FILE_CHANGED',
      `PDF ${source.path} ${why} since the creation was asked for; ask again with the file as it is now.`,
    );
  let size: number;
  try {
    size = (await fs.promises.stat(source.path)).size;
  } catch {
    throw changed('is gone');
  }
  if (size !== source.size) throw changed('changed');
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(source.path)) hash.update(chunk as Buffer);
  if (hash.digest('hex') !== source.sha256) throw changed('changed');
}

function stringFact(ctx: JobContext, name: string): string | undefined {
  const value = ctx.facts[name];
  return typeof value === 'string' ? value : undefined;
}

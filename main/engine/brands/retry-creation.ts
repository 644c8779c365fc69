// A failed brand created again with the same sources. The engine keeps what a creation made
// here was asked for (its job's request: sources in order, local files with their hash,
// instructions, workspace); a brand created elsewhere is known only by the website its
// record names. The retry is a new creation (a new job, so a new Idempotency-Key, as the
// interface asks after a failure); once the new brand exists, the failed one is deleted on the
// service and forgotten here (create-brand-job.ts), so the two never stand side by side.
import type { JobQueue } from '../queue/index.ts';
import type { Store } from '../store/index.ts';
import {
  createBrandKey,
  createBrandKind,
  CREATION_FACTS,
  CreateBrandPayload,
} from './create-brand-job.ts';
import { creationHash, type CreationRequest } from './creation-request.ts';
import type { StartedCreation } from './start-creation.ts';
import { CodedError } from '../core/coded-error.ts';

export class RetryCreationError extends CodedError {}

/** The request a brand was created with, as far as this machine knows it. */
export function creationRequestOf(store: Store, brandId: string): CreationRequest | undefined {
  const job = store.jobs
    .list({ kind: createBrandKind, limit: 1000 })
    .find((j) => j.facts[CREATION_FACTS.brandId] === brandId);
  const parsed = job === undefined ? undefined : CreateBrandPayload.safeParse(job.payload);
  if (parsed?.success) return parsed.data.request;
  const brand = store.brands.get(brandId);
  const raw = (brand?.raw ?? null) as { url?: unknown; workspaceId?: unknown } | null;
  if (typeof raw?.url !== 'string' || !/^https?:\/\//i.test(raw.url)) return undefined;
  return {
    sources: [{ kind: 'website', url: raw.url }],
    allowDuplicate: false,
    ...(typeof raw.workspaceId === 'string' ? { workspaceId: raw.workspaceId } : {}),
  };
}

export function retryBrandCreation(
  deps: { store: Store; queue: JobQueue },
  brandId: string,
): StartedCreation {
  const brand = deps.store.brands.get(brandId);
  if (brand === undefined)
    throw new RetryCreationError('BRAND_NOT_FOUND', 'This brand is not known here.');
  if (brand.status !== 'failed') {
    throw new RetryCreationError(
      'BRAND_NOT_FAILED',
      'Only a brand whose creation failed can be created again.',
    );
  }
  const request = creationRequestOf(deps.store, brandId);
  if (request === undefined) {
    throw new RetryCreationError(
      'SOURCES_UNKNOWN',
      'This brand was created elsewhere and its sources are not known here: create it again with New brand.',
    );
  }
  const hash = creationHash(request);
  const payload: CreateBrandPayload = { request, hash, follow: false, replaces: brandId };
  const enqueue = { key: createBrandKey(hash), priority: 20 };
  const active = deps.store.jobs.getActiveByKey(enqueue.key);
  if (active !== undefined) return { job: active, mode: 'resumed', payload, enqueue };
  const { job } = deps.queue.enqueue(createBrandKind, payload, enqueue);
  return { job, mode: 'new', payload, enqueue };
}

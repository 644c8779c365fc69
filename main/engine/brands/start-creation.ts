// Asking for a brand creation: the same request (same sources, same file bytes, same
// options) resumes the creation already under way instead of starting a second one. That is
// what makes a command killed after its POST safe to run again: the job, with its remembered
// key, body and Brand ID, is still in the queue.
import type { JobQueue } from '../queue/index.ts';
import type { JobRecord, Store } from '../store/index.ts';
import {
  createBrandKey,
  createBrandKind,
  CREATION_FACTS,
  type CreateBrandPayload,
} from './create-brand-job.ts';
import { creationHash, type CreationRequest } from './creation-request.ts';

export interface StartCreationDeps {
  store: Store;
  queue: JobQueue;
}

export interface StartedCreation {
  job: JobRecord;
  /** 'new': a fresh creation (a fresh key); 'resumed': one under way; 'retried': a failed one
   * whose last send had no certain answer, run again with its key and body. */
  mode: 'new' | 'resumed' | 'retried';
  payload: CreateBrandPayload;
  enqueue: { key: string; priority: number };
}

/** Creations go before background work of the same run. */
const PRIORITY = 20;

export function startBrandCreation(
  deps: StartCreationDeps,
  request: CreationRequest,
  options: { follow?: boolean } = {},
): StartedCreation {
  const hash = creationHash(request);
  const key = createBrandKey(hash);
  const payload: CreateBrandPayload = { request, hash, follow: options.follow === true };
  const enqueue = { key, priority: PRIORITY };
  const active = deps.store.jobs.getActiveByKey(key);
  if (active !== undefined) return { job: active, mode: 'resumed', payload, enqueue };
  const uncertain = lastUncertainFailure(deps.store, key);
  if (uncertain !== undefined) {
    const job = deps.queue.retry(uncertain.id);
    if (job !== undefined) return { job, mode: 'retried', payload, enqueue };
  }
  const { job } = deps.queue.enqueue(createBrandKind, payload, enqueue);
  return { job, mode: 'new', payload, enqueue };
}

/**
 * The newest failed job of this creation whose body was sent without a certain answer and
 * without a Brand ID: the service may have created the brand, so only the same key and body
 * may be sent again (the document's retry table). A definite refusal (400, 409) is not one.
 */
function lastUncertainFailure(store: Store, key: string): JobRecord | undefined {
  const last = store.jobs.list({ kind: createBrandKind, limit: 1000 }).find((j) => j.key === key);
  if (last === undefined || last.state !== 'failed') return undefined;
  const sent = last.facts[CREATION_FACTS.body] !== undefined;
  const received = typeof last.facts[CREATION_FACTS.brandId] === 'string';
  return sent && !received && last.lastError?.retryable === true ? last : undefined;
}

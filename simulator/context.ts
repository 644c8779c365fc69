// Everything a route or hook of one simulator instance needs, passed around as one value.
import type { FastifyRequest } from 'fastify';
import type { SimError } from './errors.ts';
import type { FaultInjector, FaultKind } from './faults.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { LogEntry, RequestLog } from './request-log.ts';
import type { SimState } from './state.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** key: API key (default under /v1); token: signed upload path token; none: public. */
    auth?: 'key' | 'token' | 'none';
  }
}

export interface SimContext {
  state: SimState;
  log: RequestLog;
  faults: FaultInjector;
  limiter: RateLimiter | null;
  idempotency: IdempotencyStore;
  /** Errors the next requests to a route answer instead of running (control.failNext). */
  failNext: Map<string, SimError[]>;
  /** How a completed beta job carries its ZIP: {url} (default) or {contentBase64}. */
  betaZipMode: 'url' | 'base64';
}

/** What the hooks learn about one request. */
export interface RequestInfo {
  entry: LogEntry;
  routeKey: string | null;
  keyLabel: string | null;
  postFault: FaultKind | null;
}

const infos = new WeakMap<object, RequestInfo>();

export function setInfo(request: FastifyRequest, info: RequestInfo): void {
  infos.set(request.raw, info);
}

export function infoOf(request: FastifyRequest): RequestInfo | undefined {
  return infos.get(request.raw);
}

/** "GET /v1/brands/{id}" from fastify's "/v1/brands/:id". */
export function routeKeyOf(request: FastifyRequest): string | null {
  const url = request.routeOptions.url;
  if (!url) return null;
  return `${request.method} ${url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}')}`;
}

/** Marks the request as having created a resource (the request log's `created`). */
export function noteCreated(request: FastifyRequest, kind: string, id: string): void {
  const info = infoOf(request);
  if (info) info.entry.created = { kind, id };
}

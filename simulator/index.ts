// The Brand Asset Service simulator: a real HTTP server on 127.0.0.1 serving /v1 as the
// interface document describes (and docs/service.md assumes), with fault injection, a steppable clock,
// and a control API. See INTERFACE.md beside this file.
import type { FastifyInstance } from 'fastify';
import { SimClock } from './clock.ts';
import type { SimContext } from './context.ts';
import { SimulatorControl } from './control.ts';
import { seedDemo } from './demo-seed.ts';
import { FaultInjector } from './faults.ts';
import { IdempotencyStore } from './idempotency.ts';
import { createLimiter } from './rate-limit.ts';
import type { RateLimitOptions } from './rate-limit.ts';
import { RequestLog } from './request-log.ts';
import { buildApp } from './server.ts';
import { SimState } from './state.ts';
import type { Durations } from './state.ts';

export { SimulatorControl } from './control.ts';
export type { SeedBrand, SeedMediaItem } from './control.ts';
export { FaultSpecError, parseFaultSpec, FAULT_KINDS } from './faults.ts';
export type { FaultKind } from './faults.ts';
export type { LogEntry } from './request-log.ts';
export type { Durations } from './state.ts';
export type { RateLimitOptions } from './rate-limit.ts';

export interface SimulatorOptions {
  /** Port on 127.0.0.1; default 0 (ephemeral). */
  port?: number;
  /** Accepted API keys (also accepted as Bearer tokens); default ['test-key']. */
  apiKeys?: string[];
  /** One more accepted key (the CLI's --api-key). */
  apiKey?: string;
  /** Seed of fault decisions and generated data; default 1. */
  seed?: number;
  /** Fault spec string (see faults.ts); a bad spec rejects with FaultSpecError. */
  faults?: string;
  /** Simulated ms per real ms; default 1. */
  speed?: number;
  /** Time moves only through control.clock.advance(ms). */
  manualClock?: boolean;
  /** Per-key sliding window; default {max: 120, windowMs: 60_000} on real time; false: none. */
  rateLimit?: RateLimitOptions | false;
  /** Seed the demo data set. */
  demo?: boolean;
  /** Durations of the asynchronous work (simulated ms). */
  durations?: Partial<Durations>;
  /** How a completed beta job carries its ZIP; default 'url'. */
  betaZipMode?: 'url' | 'base64';
  /** Maximum request-log entries kept (oldest dropped); default 200,000. */
  logLimit?: number;
}

export interface Simulator {
  /** http://127.0.0.1:PORT */
  origin: string;
  /** origin + '/v1' */
  baseUrl: string;
  port: number;
  /** The first accepted API key. */
  apiKey: string;
  control: SimulatorControl;
  /** The fastify instance (for app.inject in tests). */
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const seed = opts.seed ?? 1;
  const clock = new SimClock({ speed: opts.speed ?? 1, manual: opts.manualClock ?? false });
  const state = new SimState({ clock, seed, durations: opts.durations });
  const keys = [
    ...(opts.apiKeys ?? (opts.apiKey ? [] : ['test-key'])),
    ...(opts.apiKey ? [opts.apiKey] : []),
  ];
  for (const key of keys) {
    if (key === '') throw new Error('an API key must not be empty');
    state.addKey(key);
  }
  const faults = new FaultInjector(seed, opts.faults);
  const rate = opts.rateLimit === undefined ? { max: 120, windowMs: 60_000 } : opts.rateLimit;
  const ctx: SimContext = {
    state,
    log: new RequestLog(opts.logLimit),
    faults,
    limiter: rate === false ? null : createLimiter(rate, () => clock.now()),
    idempotency: new IdempotencyStore(),
    failNext: new Map(),
    betaZipMode: opts.betaZipMode ?? 'url',
  };
  const control = new SimulatorControl(ctx);
  const app = await buildApp(ctx, control);
  await app.listen({ host: '127.0.0.1', port: opts.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 0);
  state.origin = `http://127.0.0.1:${port}`;
  if (opts.demo) await seedDemo(control);
  let closed = false;
  return {
    origin: state.origin,
    baseUrl: `${state.origin}/v1`,
    port,
    apiKey: keys[0] as string,
    control,
    app,
    close: async () => {
      if (closed) return;
      closed = true;
      state.dispose();
      clock.dispose();
      app.server.closeAllConnections();
      await app.close();
    },
  };
}

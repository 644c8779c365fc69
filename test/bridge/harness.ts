/* eslint-disable @typescript-eslint/no-explicit-any -- the answers are JSON, checked field by field */
// The headless host in this process over real HTTP: the simulator's demo data set, an app
// runtime on temp folders, and a client that signs in with the printed URL's token (as a
// browser does) and calls the bridge. Keys in memory only: the keychain has its own tests.
import { request } from 'node:http';
import path from 'node:path';
import type { ChannelName, Input, NumberedEvent } from '../../contract/index.ts';
import { AppRuntime, type KeyStore } from '../../main/engine/app/app-runtime.ts';
import { startHeadlessHost, type HeadlessHost } from '../../main/hosts/headless/index.ts';
import type { Simulator, SimulatorOptions } from '../../simulator/index.ts';
import { startEngineHarness } from '../support/engine-harness.ts';

export const KEY = 'sk-bridge-test-7d1c9e0b2a';
// BRAND_SYNC_RENDERER_DIR: a build of one's own (engineers sharing a tree build apart).
export const RENDERER = path.resolve(process.env.BRAND_SYNC_RENDERER_DIR || 'dist/renderer');

export function memoryKeyStore(): KeyStore & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    load: (url) => {
      const value = entries.get(url);
      return value === undefined ? undefined : (JSON.parse(value) as never);
    },
    save: (url, credentials) => void entries.set(url, JSON.stringify(credentials)),
    remove: (url) => entries.delete(url),
  };
}

export interface Bridge {
  sim: Simulator;
  app: AppRuntime;
  host: HeadlessHost;
  dir: string;
  root: string;
  cookie: string;
  /** Every answer body, as text (to check that none holds the key). */
  answers: string[];
  call(name: string, body?: unknown): Promise<{ status: number; json: any }>;
  ok<N extends ChannelName>(name: N, body?: Input<N>): Promise<any>;
  /** Reads the event stream until `until` says stop (or the time runs out). */
  events(options: {
    lastEventId?: number;
    until: (seen: NumberedEvent[]) => boolean;
    ms?: number;
  }): Promise<NumberedEvent[]>;
  close(): Promise<void>;
}

export async function startBridge(
  options: {
    signedIn?: boolean;
    simulator?: SimulatorOptions;
    /** false: the service is not named at start (as a first run without --base-url). */
    serviceFixed?: boolean;
  } = {},
): Promise<Bridge> {
  const h = await startEngineHarness({
    prefix: 'bridge-',
    key: KEY,
    simulator: { demo: true, ...options.simulator },
  });
  const { sim, dir, root } = h;
  const app = await AppRuntime.start({
    dataDir: h.dataDir,
    root,
    ...(options.serviceFixed === false ? {} : { baseUrl: sim.baseUrl }),
    keyStore: memoryKeyStore(),
    ...(options.signedIn === false
      ? {}
      : { credentials: { kind: 'api-key', secret: KEY, source: 'environment' } }),
    host: { kind: 'browser', loginItemReason: 'not in a browser' },
  });
  h.onClose(() => app.close());
  const host = await startHeadlessHost({ app, port: 0, rendererDir: RENDERER });
  h.onClose(() => host.close());
  const first = await fetch(host.url, { redirect: 'manual' });
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const headers = { cookie, origin: host.origin, 'content-type': 'application/json' };
  const answers: string[] = [];
  const call = async (name: string, body: unknown = {}) => {
    const response = await fetch(`${host.origin}/api/${name}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    const text = await response.text();
    answers.push(text);
    return { status: response.status, json: JSON.parse(text) as any };
  };
  return {
    sim,
    app,
    host,
    dir,
    root,
    cookie,
    answers,
    call,
    async ok(name, body) {
      const { status, json } = await call(name, body ?? {});
      if (status !== 200 || json.ok !== true)
        throw new Error(`${name} failed (${status}): ${JSON.stringify(json)}`);
      return json.data;
    },
    async events({ lastEventId, until, ms = 10_000 }) {
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), ms);
      const seen: NumberedEvent[] = [];
      try {
        const response = await fetch(`${host.origin}/api/events`, {
          headers: {
            cookie,
            ...(lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }),
          },
          signal: abort.signal,
        });
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        while (!until(seen)) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block.split('\n').find((l) => l.startsWith('data: '));
            const id = block.split('\n').find((l) => l.startsWith('id: '));
            if (data) {
              const event = JSON.parse(data.slice(6)) as NumberedEvent;
              if (id && Number(id.slice(4)) !== event.seq) throw new Error('id: and seq disagree');
              seen.push(event);
            }
          }
        }
      } catch (error) {
        if (!abort.signal.aborted) throw error;
      } finally {
        clearTimeout(timer);
        abort.abort();
      }
      return seen;
    },
    close: () => h.close(),
  };
}

/** Waits for a condition, polling (the engine works in the background). */
export async function until<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  ms = 15_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value as T;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A request with exactly the path, Host and headers given: no client normalises the path
 * (`/api/./status` and `//api` go out as written) or adds a header of its own.
 */
export function rawRequest(
  port: number,
  pathname: string,
  options: { headers?: Record<string, string>; method?: string; body?: string | Buffer } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        method: options.method ?? 'GET',
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

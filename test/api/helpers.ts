// Shared pieces of the API client tests: a simulator on port 0 with a key of its own, a
// client with small retry delays and its own rate gate, and real image bytes.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll } from 'vitest';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../simulator/index.ts';
import {
  createApiClient,
  RateGate,
  realClock,
  type ApiClient,
  type ApiClientOptions,
  type Clock,
} from '../../main/engine/api/index.ts';
import { ApiError } from '../../main/engine/api/errors.ts';

export const FAST_RETRY = { limit: 6, rateLimitedLimit: 6, baseDelayMs: 2, maxDelayMs: 20 };

export function newKey(): string {
  return `sk-test-${randomBytes(12).toString('hex')}`;
}

export async function startSim(
  options: SimulatorOptions = {},
): Promise<Simulator & { key: string }> {
  const key = newKey();
  const sim = await startSimulator({ apiKeys: [key], speed: 1000, ...options });
  return Object.assign(sim, { key });
}

/**
 * The simulator's own clock for a client: Retry-After windows, the client's pauses and the
 * request log on one time axis. Two clocks scaled from Date.now (whole milliseconds) and
 * performance.now disagree by up to a millisecond, 50 simulated ms at 50× speed.
 */
export function simulatorClock(sim: Simulator, speed: number): Clock {
  return {
    now: () => sim.control.clock.now(),
    // The real sleep, shortened by the speed: an abort ends it with ABORTED, as Clock says.
    sleep: (ms, signal) => realClock.sleep(ms / speed, signal),
  };
}

export function clientFor(
  sim: { baseUrl: string; key: string },
  overrides: Partial<ApiClientOptions> = {},
): ApiClient {
  return createApiClient({
    baseUrl: sim.baseUrl,
    credentials: { kind: 'api-key', secret: sim.key },
    retry: FAST_RETRY,
    // A gate of its own: one test's 429 must not hold another test's calls.
    rateGate: new RateGate(),
    timeoutMs: 10_000,
    ...overrides,
  });
}

/** Resolves with the ApiError a call rejects with (fails the test when it resolves). */
export async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

export async function tempDir(): Promise<string> {
  return fs.promises.mkdtemp(path.join(os.tmpdir(), 'brand-sync-api-'));
}

export interface BrandSetting {
  sim: Simulator & { key: string };
  client: ApiClient;
  /** A temp dir, removed after the file's tests. */
  dir: string;
  /** A brand seeded for the file's tests. */
  brandId: string;
}

/** Registers beforeAll/afterAll: one simulator, client, temp dir and brand for a test file. */
export function useBrandSetting(brandName: string): BrandSetting {
  const setting = {} as BrandSetting;
  beforeAll(async () => {
    setting.sim = await startSim({ rateLimit: false });
    setting.client = clientFor(setting.sim);
    setting.dir = await tempDir();
    setting.brandId = (await setting.sim.control.seedBrand({ name: brandName })).id;
  });
  afterAll(async () => {
    await setting.sim?.close();
    if (setting.dir) await fs.promises.rm(setting.dir, { recursive: true, force: true });
  });
  return setting;
}

/** A valid PNG of one colour; `seed` changes the colour, hence the bytes. */
export function png(seed: number, width = 4, height = 4): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++)
    row.set([seed & 0xff, (seed >> 8) & 0xff, (seed >> 16) & 0xff], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export async function writeFile(
  dir: string,
  name: string,
  bytes: Buffer | string,
): Promise<string> {
  const file = path.join(dir, name);
  await fs.promises.writeFile(file, bytes);
  return file;
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}
export interface ScriptedAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * A real HTTP server answering from a script: for what the simulator, being faithful, never
 * does (a body that breaks the schema, a redirect to another host) and to see raw headers.
 */
export async function startScripted(
  answer: (request: SeenRequest) => ScriptedAnswer,
): Promise<{ origin: string; baseUrl: string; seen: SeenRequest[]; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      seen.push(request);
      const a = answer(request);
      const body =
        a.body === undefined
          ? ''
          : typeof a.body === 'string' || Buffer.isBuffer(a.body)
            ? a.body
            : JSON.stringify(a.body);
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

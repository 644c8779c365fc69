// Downloads that a host cuts off or asks to wait: a try that brings nothing new counts, and
// after a bounded number the download fails as cut off (never as "offline": the host
// answered); a host that honours Range is resumed try after try until the file is whole; a
// storage host's Retry-After holds that host's downloads, and one that asks too long fails
// the download at once. The client runs on a virtual clock: waits take no real time.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createApiClient, RateGate, type Clock } from '../../main/engine/api/index.ts';
import { abortedError } from '../../main/engine/api/clock.ts';
import { CUT_LIMIT } from '../../main/engine/api/download.ts';
import { apiError, tempDir } from './helpers.ts';

const FILE = randomBytes(100_000);

type Mode =
  | { kind: 'cut'; after: number; range: boolean }
  | { kind: 'busy'; status: 429 | 503; retryAfter: string; times: number };

interface Host {
  origin: string;
  /** Each request: its virtual time and its Range header. */
  seen: { at: number; range: string | undefined }[];
  close(): Promise<void>;
}

let dir: string;
let virtualNow = 0;
const clock: Clock = {
  now: () => virtualNow,
  async sleep(ms, signal) {
    if (signal?.aborted) throw abortedError('wait');
    virtualNow += Math.max(0, ms);
  },
};
const hosts: Host[] = [];

beforeEach(async () => {
  dir = await tempDir();
  virtualNow = 1_000_000;
});
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
  await fs.promises.rm(dir, { recursive: true, force: true });
});

/** A file host: cuts each answer `after` bytes in (honouring Range or not), or is busy. */
async function startHost(mode: Mode): Promise<Host> {
  const seen: Host['seen'] = [];
  let busy = mode.kind === 'busy' ? mode.times : 0;
  const server = http.createServer((req, res) => {
    seen.push({ at: virtualNow, range: req.headers.range });
    if (mode.kind === 'busy' && busy > 0) {
      busy--;
      res.writeHead(mode.status, { 'retry-after': mode.retryAfter, 'content-type': 'text/plain' });
      res.end('slow down');
      return;
    }
    const asked = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = mode.kind === 'cut' && mode.range && asked ? Number(asked[1]) : 0;
    const rest = FILE.subarray(start);
    res.writeHead(start > 0 ? 206 : 200, {
      'content-type': 'application/zip',
      'content-length': String(rest.length),
      ...(start > 0 ? { 'content-range': `bytes ${start}-${FILE.length - 1}/${FILE.length}` } : {}),
    });
    if (mode.kind !== 'cut') return void res.end(rest);
    res.write(rest.subarray(0, mode.after));
    setTimeout(() => res.destroy(), 5);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host: Host = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  hosts.push(host);
  return host;
}

/** A client whose service is `serviceOrigin` (a download there is on the service's origin). */
function client(serviceOrigin = 'http://127.0.0.1:9') {
  return createApiClient({
    baseUrl: `${serviceOrigin}/v1`,
    credentials: { kind: 'api-key', secret: 'sk-download-cut-0123456789' },
    rateGate: new RateGate(clock),
    retry: { limit: 4, baseDelayMs: 500, maxDelayMs: 30_000 },
    clock,
    timeoutMs: 10_000,
  });
}

test.each([
  ['a storage host', false],
  ["the service's own origin", true],
] as const)(
  'a download %s cuts at the same place every time fails as cut off after a bounded number of tries',
  async (_where, own) => {
    const host = await startHost({ kind: 'cut', after: 1000, range: false });
    const dest = path.join(dir, 'skill.zip');
    const error = await apiError(
      client(own ? host.origin : undefined).downloadToFile(`${host.origin}/skill.zip`, dest),
    );
    expect(error).toMatchObject({ code: 'DOWNLOAD_CUT_OFF', kind: 'server' });
    expect(error.message).toMatch(/^The download from 127\.0\.0\.1:\d+ was cut off \d+ times/);
    // The first try brought 1000 bytes; every later one brought nothing new.
    expect(host.seen).toHaveLength(CUT_LIMIT + 1);
    expect(fs.existsSync(dest)).toBe(false);
  },
);

test('a host that honours Range is resumed where each try stopped, until the file is whole', async () => {
  const host = await startHost({ kind: 'cut', after: 30_000, range: true });
  const dest = path.join(dir, 'skill.zip');
  const result = await client().downloadToFile(`${host.origin}/skill.zip`, dest);
  expect(result).toMatchObject({ bytes: FILE.length, resumed: true });
  expect((await fs.promises.readFile(dest)).equals(FILE)).toBe(true);
  expect(host.seen.map((r) => r.range)).toEqual([
    undefined,
    'bytes=30000-',
    'bytes=60000-',
    'bytes=90000-',
  ]);
});

test.each([429, 503] as const)(
  "a storage host's Retry-After (%s) is waited out before that download's next request",
  async (status) => {
    const host = await startHost({ kind: 'busy', status, retryAfter: '30', times: 2 });
    const dest = path.join(dir, 'skill.zip');
    const gate = new RateGate(clock);
    const c = client();
    await c.downloadToFile(`${host.origin}/skill.zip`, dest);
    expect((await fs.promises.readFile(dest)).equals(FILE)).toBe(true);
    const at = host.seen.map((r) => r.at);
    expect(at).toHaveLength(3);
    expect((at[1] as number) - (at[0] as number)).toBeGreaterThanOrEqual(30_000);
    expect((at[2] as number) - (at[1] as number)).toBeGreaterThanOrEqual(30_000);
    // Not the key's gate: the service was never asked to wait.
    expect(gate.pausedUntil).toBeUndefined();
    expect(c.rateGate.pausedUntil).toBeUndefined();
  },
);

test('a storage host that asks to wait longer than a sync waits fails the download; the next one does not ask it early', async () => {
  const host = await startHost({ kind: 'busy', status: 503, retryAfter: '600', times: 1 });
  const c = client();
  const error = await apiError(c.downloadToFile(`${host.origin}/a.zip`, path.join(dir, 'a.zip')));
  expect(error).toMatchObject({ code: 'DOWNLOAD_FAILED', kind: 'server' });
  expect(error.message).toMatch(/asked to wait 600 s/);
  expect(host.seen).toHaveLength(1);
  // Another file of the same host, a minute later: still within its wait, nothing is sent.
  virtualNow += 60_000;
  const again = await apiError(c.downloadToFile(`${host.origin}/b.zip`, path.join(dir, 'b.zip')));
  expect(again.message).toMatch(/asked to wait 540 s more/);
  expect(host.seen).toHaveLength(1);
  // Once its time has passed, it is asked again.
  virtualNow += 600_000;
  await c.downloadToFile(`${host.origin}/b.zip`, path.join(dir, 'b.zip'));
  expect(host.seen).toHaveLength(2);
});

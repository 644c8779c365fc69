// The headless host's door, attacked as another local process would: every route judged on
// the path the router matched (encoded letters, doubled slashes and dot segments included),
// bodies bounded per channel, JSON depth bounded, event streams capped and carrying the same
// headers, a session per exchange and a cookie per instance, a one-time code for --open, and
// a key from the environment kept to the service it was started with.
import { createServer } from 'node:http';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHANNEL_NAMES } from '../../contract/channel-names.ts';
import { Sessions, ONE_TIME_CODE_MS, jsonTooDeep } from '../../main/hosts/headless/security.ts';
import { AppRuntime } from '../../main/engine/app/app-runtime.ts';
import { settingsDoc, updateSettings } from '../../main/engine/app/settings.ts';
import { KEY, memoryKeyStore, rawRequest, startBridge, until, type Bridge } from './harness.ts';

let b: Bridge;

beforeAll(async () => {
  b = await startBridge();
});

afterAll(async () => {
  await b?.close();
});

const raw = (
  pathname: string,
  options: { headers?: Record<string, string>; method?: string; body?: string | Buffer } = {},
) => rawRequest(b.host.port, pathname, options);

/** Other spellings of a path that a router may decode or fold onto the same route. */
function spellings(pathname: string): string[] {
  const [, first = '', rest = ''] = /^\/([^/]+)(.*)$/.exec(pathname) ?? [];
  const hex = (c: string) => `%${c.charCodeAt(0).toString(16)}`;
  return [
    pathname,
    `/${hex(first[0] as string)}${first.slice(1)}${rest}`,
    `/${first[0]}${hex(first[1] as string)}${first.slice(2)}${rest}`,
    `/${first.toUpperCase()}${rest}`,
    `//${first}${rest}`,
    `/${first}/.${rest}`,
    `/${first}/${rest}`,
    `/${first}%2f${rest.slice(1)}`,
  ];
}

describe('deny by default, judged on the routed path', () => {
  test('every registered route but the page and its assets answers 401 without a session, whatever the spelling', async () => {
    const routes = b.host.routes.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');
    // The table covers what the host registered: every channel, the events and the files.
    expect(routes.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual(
      CHANNEL_NAMES.map((name) => `/api/${name}`),
    );
    expect(routes.map((r) => r.url)).toEqual(
      expect.arrayContaining(['/', '/assets/*', '/api/events', '/files/*']),
    );
    const open = new Set(['/', '/assets/*']);
    const tried: string[] = [];
    for (const route of routes) {
      if (open.has(route.url)) continue;
      const concrete = route.url.replace('*', 'skill/x/SKILL.md');
      for (const spelling of spellings(concrete)) {
        const res = await raw(spelling, {
          method: route.method,
          ...(route.method === 'POST'
            ? { headers: { 'content-type': 'application/json' }, body: '{}' }
            : {}),
        });
        tried.push(`${route.method} ${spelling} ${res.status}`);
        expect(res.status, `${route.method} ${spelling}: ${res.body.slice(0, 120)}`).toBe(401);
      }
    }
    expect(tried.length).toBeGreaterThan(CHANNEL_NAMES.length * 6);
  });

  test('the encoded spellings reach the real route: with the session they answer as it does', async () => {
    const res = await raw('/%61pi/status', {
      method: 'POST',
      headers: { cookie: b.cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).ok).toBe(true);
  });

  test('a path that matches no route needs the session too; with it, 404', async () => {
    for (const p of ['/index.html', '/nothing', '/api', '/files', '/assets']) {
      expect((await raw(p)).status, p).toBe(401);
    }
    expect((await raw('/nothing', { headers: { cookie: b.cookie } })).status).toBe(404);
    const unknown = await raw('/api/nope', {
      method: 'POST',
      headers: { cookie: b.cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.code).toBe('UNKNOWN_CHANNEL');
  });

  test('the page and its built assets are open', async () => {
    const page = await raw('/');
    expect(page.status).toBe(200);
    const script = /src="\.?(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1] as string;
    expect(script).toBeDefined();
    expect((await raw(script)).status).toBe(200);
    expect((await raw('/assets/nope.js')).status).toBe(404);
  });
});

describe('bounded requests', () => {
  const post = (name: string, body: string | Buffer) =>
    raw(`/api/${name}`, {
      method: 'POST',
      headers: { cookie: b.cookie, 'content-type': 'application/json' },
      body,
    });

  test('a query or command takes a small body; 413 beyond, naming the limit', async () => {
    const big = JSON.stringify({ brandId: 'x'.repeat(300 * 1024) });
    for (const name of ['brand', 'status', 'pause', 'updateSettings']) {
      const res = await post(name, big);
      expect(res.status, name).toBe(413);
      expect(JSON.parse(res.body).error).toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
        message: expect.stringMatching(/262144 bytes at most/),
      });
    }
  });

  test('only the channel that carries dropped files takes a large one', async () => {
    const res = await post('addFiles', JSON.stringify({ brandId: 'x', pad: 'y'.repeat(1 << 20) }));
    expect(res.status).not.toBe(413);
    const over = await post('addFiles', Buffer.alloc(73 * 1024 * 1024, 0x20));
    expect(over.status).toBe(413);
  });

  test('deeply nested JSON is refused before it is parsed', async () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const res = await post('addFiles', deep(5_000_000));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.message).toMatch(/nests deeper than 32 levels/);
    expect((await post('status', `{"a":${deep(40)}}`)).status).toBe(400);
    // Brackets inside strings are text, not depth.
    expect(jsonTooDeep(JSON.stringify({ text: '['.repeat(100) }))).toBe(false);
    expect(jsonTooDeep(JSON.stringify({ text: '\\"[[[[' }))).toBe(false);
    expect(jsonTooDeep(deep(33))).toBe(true);
    expect(jsonTooDeep(deep(32))).toBe(false);
  });

  test('event streams are capped per session, and carry the security headers', async () => {
    const aborts: AbortController[] = [];
    try {
      const open = async () => {
        const abort = new AbortController();
        aborts.push(abort);
        return fetch(`${b.host.origin}/api/events`, {
          headers: { cookie: b.cookie },
          signal: abort.signal,
        });
      };
      const first = await open();
      expect(first.status).toBe(200);
      for (const header of [
        'content-security-policy',
        'x-content-type-options',
        'referrer-policy',
        'x-frame-options',
        'cross-origin-opener-policy',
      ]) {
        expect(first.headers.get(header), header).toBeTruthy();
      }
      for (let i = 1; i < 8; i++) expect((await open()).status).toBe(200);
      const refused = await open();
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
        'TOO_MANY_STREAMS',
      );
      // Another session still gets its own.
      const other = await fetch(b.host.url, { redirect: 'manual' });
      const cookie = (other.headers.get('set-cookie') ?? '').split(';')[0] as string;
      const abort = new AbortController();
      aborts.push(abort);
      const theirs = await fetch(`${b.host.origin}/api/events`, {
        headers: { cookie },
        signal: abort.signal,
      });
      expect(theirs.status).toBe(200);
    } finally {
      for (const abort of aborts) abort.abort();
    }
  });

  test('200 Sync now calls join the pass under way instead of one pass each', async () => {
    const jobIds = () =>
      b.app
        .requireEngine()
        .store.jobs.list({ limit: 1000 })
        .map((j: { id: number }) => j.id);
    // From a settled queue: the start-up pass's jobs would otherwise absorb the first call.
    await until(async () => {
      const queue = (await b.ok('activity')).queue;
      return queue.running === 0 && !queue.counts.queued && !queue.counts['retry-wait'];
    }, 'the start-up pass to settle');
    // A slow service keeps the pass under way while the burst arrives: each of its requests
    // takes 3 s, and the 199 calls after the first are sent at once (one after another, a
    // loaded machine took long enough to outlast a pass, and the next call rightly began
    // another).
    b.sim.control.setFaults('/v1/*:latency=3000');
    try {
      const before = new Set(jobIds());
      await b.ok('syncNow');
      const onePass = jobIds().filter((id) => !before.has(id)).length;
      expect(onePass).toBeGreaterThan(0);
      await Promise.all(Array.from({ length: 199 }, () => b.ok('syncNow')));
      const added = jobIds().filter((id) => !before.has(id));
      // One pass each would be 200 passes' jobs (830 before the fix): every call joined the
      // pass under way, whose jobs may have grown meanwhile (a listing adds its brands' jobs).
      expect(added.length).toBeLessThan(onePass * 2);
    } finally {
      b.sim.control.clearFaults();
    }
  });
});

describe('one session per exchange, one cookie per instance', () => {
  test('each exchange makes its own session; the cookie is named for the port', async () => {
    const cookies: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await fetch(b.host.url, { redirect: 'manual' });
      cookies.push((res.headers.get('set-cookie') ?? '').split(';')[0] as string);
    }
    const [one, two] = cookies as [string, string];
    expect(one.split('=')[0]).toBe(`brand_sync_session_${b.host.port}`);
    expect(one).not.toBe(two);
    for (const cookie of cookies) {
      const res = await raw('/api/status', {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(200);
    }
  });

  test('a second instance on another port never signs the first out', async () => {
    const second = await startBridge();
    try {
      expect(second.cookie.split('=')[0]).not.toBe(b.cookie.split('=')[0]);
      // A browser sends both cookies to both (cookies are per host): each takes its own.
      const both = `${b.cookie}; ${second.cookie}`;
      for (const bridge of [b, second]) {
        const res = await rawRequest(bridge.host.port, '/api/status', {
          method: 'POST',
          headers: { cookie: both, 'content-type': 'application/json' },
          body: '{}',
        });
        expect(res.status).toBe(200);
      }
      // The other's cookie alone opens nothing here.
      const foreign = await raw('/api/status', {
        method: 'POST',
        headers: { cookie: second.cookie.replace(/^[^=]+/, `brand_sync_session_${b.host.port}`) },
      });
      expect(foreign.status).toBe(401);
    } finally {
      await second.close();
    }
  });

  test('--open hands the browser a one-time code, not the token: once, within a minute', async () => {
    const url = b.host.oneTimeUrl();
    const token = new URL(b.host.url).searchParams.get('token') as string;
    expect(url).not.toContain(token);
    const code = new URL(url).searchParams.get('code') as string;
    const first = await raw(`/?code=${code}`);
    expect(first.status).toBe(303);
    expect(first.headers['set-cookie']?.[0]).toMatch(/^brand_sync_session_\d+=/);
    const again = await raw(`/?code=${code}`);
    expect(again.status).toBe(401);
    expect(again.body).toMatch(/one visit within a minute/);

    let now = 1_000;
    const sessions = new Sessions(() => now);
    const late = sessions.newCode();
    now += ONE_TIME_CODE_MS;
    expect(sessions.redeem(late)).toBe(false);
    const soon = sessions.newCode();
    now += ONE_TIME_CODE_MS - 1;
    expect(sessions.redeem(soon)).toBe(true);
    expect(sessions.redeem('made-up')).toBe(false);
  });
});

describe('what holds a secret is private', () => {
  test('the data dir is 0700 and the database 0600', async () => {
    if (process.platform === 'win32') return;
    const data = path.join(b.dir, 'data');
    expect((await stat(data)).mode & 0o777).toBe(0o700);
    for (const file of ['brand-sync.db', 'brand-sync.db-wal']) {
      const info = await stat(path.join(data, file)).catch(() => null);
      if (file.endsWith('.db')) expect(info).not.toBeNull();
      if (info) expect(info.mode & 0o777, file).toBe(0o600);
    }
  });
});

describe('a key from the environment stays with its service', () => {
  test('changing the service address is refused in words, and nothing reaches the new one', async () => {
    const heard: string[] = [];
    const listener = createServer((req, res) => {
      heard.push(`${req.method} ${req.url} ${req.headers['x-api-key'] ?? ''}`);
      res.end('{}');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const elsewhere = `http://127.0.0.1:${(listener.address() as { port: number }).port}/v1`;
    const dataDir = path.join(b.dir, 'env-key');
    const start = (credentials: boolean) =>
      AppRuntime.start({
        dataDir,
        root: path.join(b.dir, 'env-root'),
        keyStore: memoryKeyStore(),
        ...(credentials
          ? { credentials: { kind: 'api-key', secret: KEY, source: 'environment' } as const }
          : {}),
        host: { kind: 'browser', loginItemReason: 'not in a browser' },
      });
    try {
      // The service chosen in Settings by an earlier run; this run has a key from the environment.
      const earlier = await start(false);
      await updateSettings(earlier, { baseUrl: b.sim.baseUrl });
      await earlier.close();
      const app = await start(true);
      try {
        expect(app.baseUrl).toBe(b.sim.baseUrl);
        expect(settingsDoc(app).baseUrlFixed).toBe(true);
        await expect(updateSettings(app, { baseUrl: elsewhere })).rejects.toThrow(
          /from BRAND_SYNC_API_KEY or BRAND_SYNC_ACCESS_TOKEN\) belongs to http:\/\/127\.0\.0\.1:\d+\/v1 and is never sent to another address/,
        );
        await app.requireEngine().reconcile();
        expect(app.baseUrl).toBe(b.sim.baseUrl);
      } finally {
        await app.close();
      }
      expect(heard).toEqual([]);
      // Without a key from the environment the address may change, but not to plain http
      // on another machine.
      const later = await start(false);
      try {
        await expect(
          updateSettings(later, { baseUrl: 'http://brand.example.com/v1' }),
        ).rejects.toThrow(/Plain http:\/\/ is used only for this computer/);
        await updateSettings(later, { baseUrl: elsewhere });
        expect(later.baseUrl).toBe(elsewhere);
      } finally {
        await later.close();
      }
    } finally {
      listener.close();
    }
  });

  test('with the service fixed at start, the refusal names the flag', async () => {
    const res = await b.call('updateSettings', { baseUrl: 'https://elsewhere.example/v1' });
    expect(res.status).toBe(422);
    expect(res.json.error.message).toMatch(/fixed for this run by --base-url/);
  });
});

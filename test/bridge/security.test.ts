// The headless host's guards, each over real HTTP: the token exchanged for an HttpOnly
// SameSite=Strict cookie, 401 without it, 403 for a foreign Host (DNS rebinding) or Origin,
// no CORS, a strict CSP, files never served from outside, loopback only.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KEY, rawRequest, startBridge, until, type Bridge } from './harness.ts';

let b: Bridge;
let brandId: string;

beforeAll(async () => {
  b = await startBridge();
  brandId = await until(async () => {
    const status = await b.ok('status');
    const brand = status.brands.find((x: { name: string }) => x.name === 'Northwind Coffee');
    return brand?.skill.installedSkillId ? (brand.id as string) : undefined;
  }, 'the Brand Skill on disk');
});

afterAll(async () => {
  await b?.close();
});

/** A raw request to this file's host (Host and every header exactly as a test says). */
const raw = (pathname: string, headers: Record<string, string> = {}, method = 'GET') =>
  rawRequest(b.host.port, pathname, { headers, method });

describe('the session', () => {
  test('the printed token becomes an HttpOnly, SameSite=Strict cookie, and the URL loses it', async () => {
    const token = new URL(b.host.url).searchParams.get('token') as string;
    const res = await raw(`/?token=${token}`);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(token);
  });

  test('a wrong token is refused; /api and /files without the cookie get 401', async () => {
    expect((await raw('/?token=guess')).status).toBe(401);
    expect((await raw('/api/status', {}, 'POST')).status).toBe(401);
    expect((await raw('/api/status', { cookie: 'brand_sync_session=guess' }, 'POST')).status).toBe(
      401,
    );
    expect((await raw('/api/events')).status).toBe(401);
    expect((await raw(`/files/skill/${brandId}/SKILL.md`)).status).toBe(401);
    expect((await raw(`/files/skill/${brandId}/SKILL.md`, { cookie: b.cookie })).status).toBe(200);
  });

  test('scripts may send the token as a Bearer header instead', async () => {
    const token = new URL(b.host.url).searchParams.get('token') as string;
    const res = await raw(
      '/api/status',
      { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      'POST',
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).ok).toBe(true);
    expect((await raw('/api/status', { authorization: 'Bearer nope' }, 'POST')).status).toBe(401);
  });
});

describe('Host and Origin', () => {
  test('a foreign Host gets 403 on every path (DNS rebinding)', async () => {
    for (const p of [
      '/',
      '/index.html',
      '/api/status',
      '/api/events',
      `/files/skill/${brandId}/SKILL.md`,
    ]) {
      const res = await raw(p, { host: `evil.example:${b.host.port}`, cookie: b.cookie });
      expect(res.status, p).toBe(403);
    }
    expect((await raw('/', { host: `localhost:${b.host.port}` })).status).toBe(200);
    expect((await raw('/', { host: '127.0.0.1:1' })).status).toBe(403);
  });

  test('another Origin gets 403; the app’s own passes; no CORS header anywhere', async () => {
    const foreign = await raw(
      '/api/status',
      { origin: 'https://evil.example', cookie: b.cookie },
      'POST',
    );
    expect(foreign.status).toBe(403);
    const own = await raw(
      '/api/status',
      { origin: b.host.origin, cookie: b.cookie, 'content-type': 'application/json' },
      'POST',
    );
    expect(own.status).toBe(200);
    const preflight = await raw(
      '/api/status',
      { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      'OPTIONS',
    );
    expect(preflight.status).toBe(403);
    for (const res of [foreign, own, preflight, await raw('/')]) {
      expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
  });
});

describe('headers and the page', () => {
  test('a strict CSP (no inline script, no remote origin), no-referrer, nosniff', async () => {
    const page = await raw('/');
    expect(page.status).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).not.toMatch(/https?:|\*/);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.body).not.toContain(KEY);
    expect(b.host.url).not.toContain(KEY);
  });
});

describe('files', () => {
  test('never outside the Brand Skill or the brand folder: traversal, encoded dots, symlinks', async () => {
    const live = path.join(b.root, 'Northwind Coffee', 'Brand Skill');
    const secret = path.join(b.dir, 'outside.txt');
    await writeFile(secret, 'not for the browser');
    await symlink(secret, path.join(b.root, 'Northwind Coffee', 'link-out.txt'));
    await mkdir(path.join(b.root, 'Northwind Coffee', 'sub'), { recursive: true });
    const ok = await raw(`/files/skill/${brandId}/guidelines/voice.md`, { cookie: b.cookie });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toContain('text/markdown');
    for (const p of [
      `/files/skill/${brandId}/../../brand-sync.db`,
      `/files/skill/${brandId}/%2e%2e/%2e%2e/data/brand-sync.db`,
      `/files/skill/${brandId}/..%2f..%2fdata%2fbrand-sync.db`,
      `/files/skill/${brandId}/%2fetc%2fpasswd`,
      `/files/folder/${brandId}/link-out.txt`,
      `/files/folder/${brandId}/sub/..%2f..%2f..%2foutside.txt`,
      `/files/folder/no-such-brand/x.png`,
      '/files/media/no-such-item',
    ]) {
      const res = await raw(p, { cookie: b.cookie });
      expect(res.status, p).toBe(404);
      expect(res.body).not.toContain('not for the browser');
    }
    expect(live).toBeTruthy();
  });
});

describe('the listening socket', () => {
  test('is bound to 127.0.0.1 only: not ::1, not another interface', async () => {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '::1', port: b.host.port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
    expect(new URL(b.host.origin).hostname).toBe('127.0.0.1');
  });
});

// The desktop window's `app://` handler as a plain Request -> Response function: the built
// renderer and the engine's files, the same strict CSP as the headless host, the right MIME
// types, and nothing outside (traversal, encoded dots, symlinks out, another host); files
// streamed, never read whole into memory.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, open, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, onTestFinished, test } from 'vitest';
import {
  APP_SCHEME_PRIVILEGES,
  createAppProtocolHandler,
  isAppPageUrl,
  isAppUrl,
} from '../../main/hosts/electron/app-protocol.ts';
import { resolveInside } from '../../main/engine/views/safe-path.ts';
import { mimeTypeOf } from '../../main/engine/views/skill-view.ts';
import { CONTENT_SECURITY_POLICY } from '../../main/hosts/headless/security.ts';

let dir: string;
let pipe: string;
let handle: (request: Request) => Promise<Response>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'app-protocol-'));
  const renderer = path.join(dir, 'renderer');
  const skill = path.join(dir, 'skill');
  await mkdir(path.join(renderer, 'assets'), { recursive: true });
  await mkdir(skill, { recursive: true });
  await writeFile(path.join(renderer, 'index.html'), '<!doctype html><title>Brand Sync</title>');
  await writeFile(path.join(renderer, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(path.join(renderer, 'assets', 'app.css'), 'body{}');
  await writeFile(path.join(dir, 'secret.txt'), 'outside');
  await symlink(path.join(dir, 'secret.txt'), path.join(renderer, 'assets', 'link.txt'));
  await writeFile(path.join(skill, 'SKILL.md'), '# Skill');
  await writeFile(path.join(skill, 'evil.html'), '<script>alert(1)</script>');
  await writeFile(path.join(skill, 'big.bin'), big);
  pipe = path.join(dir, 'pipe');
  handle = createAppProtocolHandler({
    rendererDir: renderer,
    // The engine's files for one brand "b1", from a folder (the real one is fileFor(app, …)),
    // and a named pipe: a file whose end the test decides (the real fileFor serves files only).
    fileFor: async ([area, brand, ...rest]) => {
      if (area === 'pipe') return { path: pipe, mimeType: 'application/octet-stream' };
      if (area !== 'skill' || brand !== 'b1') return null;
      const file = await resolveInside(skill, rest.join('/'));
      return file === null ? null : { path: file, mimeType: mimeTypeOf(file) };
    },
  });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const get = (url: string, method = 'GET') => handle(new Request(url, { method }));

/** Deterministic bytes, so a mismatch is a real one. */
function bytes(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}
const big = bytes(8 * 1024 * 1024, 7);

test('the page and its assets, with the CSP and the right types', async () => {
  const page = await get('app://brand-sync/');
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html');
  expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  expect(await page.text()).toContain('<title>Brand Sync</title>');
  expect((await get('app://brand-sync/assets/app.js')).headers.get('content-type')).toBe(
    'text/javascript',
  );
  expect((await get('app://brand-sync/assets/app.css')).headers.get('content-type')).toBe(
    'text/css',
  );
  const head = await get('app://brand-sync/index.html', 'HEAD');
  expect(head.status).toBe(200);
  expect(await head.text()).toBe('');
});

test('the engine files: data, never a page of the app (markup as text, sandboxed)', async () => {
  const md = await get('app://brand-sync/files/skill/b1/SKILL.md');
  expect(md.status).toBe(200);
  expect(md.headers.get('content-type')).toBe('text/markdown');
  expect(await md.text()).toBe('# Skill');
  const html = await get('app://brand-sync/files/skill/b1/evil.html');
  expect(html.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  expect(html.headers.get('content-security-policy')).toContain('sandbox');
  expect((await get('app://brand-sync/files/skill/other/SKILL.md')).status).toBe(404);
});

test.each([
  'app://brand-sync/../secret.txt',
  'app://brand-sync/%2e%2e/secret.txt',
  'app://brand-sync/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
  'app://brand-sync/assets/..%5c..%5csecret.txt',
  'app://brand-sync/assets/link.txt',
  'app://brand-sync/files/skill/b1/%2e%2e/%2e%2e/secret.txt',
  'app://brand-sync/files/skill/b1/..%2F..%2Fsecret.txt',
  'app://brand-sync/nothing-here.js',
  'app://evil/index.html',
  'https://brand-sync/index.html',
])('refused: %s', async (url) => {
  const answer = await get(url);
  expect(answer.status).toBe(404);
  expect(await answer.text()).not.toContain('outside');
  expect(answer.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
});

test('the page’s CSP: scripts of the app only, no eval, no plugins, never framed, no remote source', async () => {
  const csp = (await get('app://brand-sync/')).headers.get('content-security-policy') ?? '';
  const directives = new Map(
    csp.split(';').map((d) => {
      const [name = '', ...values] = d.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );
  expect(directives.get('default-src')).toEqual(["'self'"]);
  expect(directives.get('script-src')).toEqual(["'self'"]);
  expect(directives.get('object-src')).toEqual(["'none'"]);
  expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
  expect(directives.get('base-uri')).toEqual(["'none'"]);
  expect(csp).not.toMatch(/unsafe-eval|https?:|\*/);
});

test('only GET and HEAD', async () => {
  expect((await get('app://brand-sync/', 'POST')).status).toBe(405);
});

test('a large file is streamed: a stream body, in chunks, every byte in order', async () => {
  const answer = await get('app://brand-sync/files/skill/b1/big.bin');
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-security-policy')).toContain('sandbox');
  expect(answer.body).toBeInstanceOf(ReadableStream);
  const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    chunks.push(next.value);
  }
  // Read whole, the body would be one chunk of 8 MiB.
  expect(chunks.length).toBeGreaterThan(1);
  expect(Math.max(...chunks.map((c) => c.byteLength))).toBeLessThan(big.length);
  expect(Buffer.concat(chunks).equals(big)).toBe(true);
});

test('a HEAD of a file opens nothing and sends no body', async () => {
  const head = await get('app://brand-sync/files/skill/b1/big.bin', 'HEAD');
  expect(head.status).toBe(200);
  expect(head.body).toBeNull();
});

test.skipIf(process.platform === 'win32')(
  'the answer and its first bytes come before the file has ended (a named pipe written in two halves)',
  async () => {
    execFileSync('mkfifo', [pipe]);
    onTestFinished(() => rm(pipe, { force: true }));
    const first = bytes(32 * 1024, 1);
    const rest = bytes(256 * 1024, 2);
    // The writer opens as the handler's reader does (a pipe's open waits for both ends).
    const [answer, writer] = await Promise.all([
      get('app://brand-sync/files/pipe/x'),
      open(pipe, 'w'),
    ]);
    // Closed whatever happens, so a handler that waits for the end is not left waiting forever.
    onTestFinished(() => writer.close().catch(() => {}));
    await writer.write(first);
    const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
    const head = await reader.read();
    expect(head.done).toBe(false);
    const got = [Buffer.from(head.value as Uint8Array)];
    // The first bytes arrived while the second half was not written yet.
    expect(Buffer.concat(got).equals(first.subarray(0, got[0]?.length))).toBe(true);
    // Written while read: a pipe holds 64 KiB, the writer waits for the reader to drain it.
    const writing = writer.write(rest).then(() => writer.close());
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      got.push(Buffer.from(next.value));
    }
    await writing;
    expect(Buffer.concat(got).equals(Buffer.concat([first, rest]))).toBe(true);
  },
);

test('a file gone between the lookup and the read is a 404', async () => {
  const gone = createAppProtocolHandler({
    rendererDir: dir,
    fileFor: async () => ({ path: path.join(dir, 'no-such-file'), mimeType: 'image/png' }),
  });
  const answer = await gone(new Request('app://brand-sync/files/media/x'));
  expect(answer.status).toBe(404);
});

test.each([
  ['app://brand-sync/', true, true],
  ['app://brand-sync/index.html#/brands', true, true],
  ['app://brand-sync/#/settings', true, true],
  ['app://brand-sync/files/skill/b1/evil.svg', true, false],
  ['app://brand-sync/assets/app.js', true, false],
  ['app://brand-sync.evil/', false, false],
  ['app://brand-sync:81/', false, false],
  ['app://user@brand-sync/', false, false],
  ['app://evil/app://brand-sync/', false, false],
  ['https://brand-sync/', false, false],
  ['file:///app/index.html', false, false],
  ['about:blank', false, false],
  ['not a url', false, false],
])('%s: on the app origin %s, the app page %s', (url, app, page) => {
  expect(isAppUrl(url)).toBe(app);
  expect(isAppPageUrl(url)).toBe(page);
});

test('the scheme is a standard secure origin that never bypasses the CSP', () => {
  expect(APP_SCHEME_PRIVILEGES).toEqual({
    standard: true,
    secure: true,
    supportFetchAPI: true,
    stream: true,
  });
});

// The desktop window's `app://` handler as a plain Request -> Response function: the built
// renderer and the engine's files, the same strict CSP as the headless host, the right MIME
// types, and nothing outside (traversal, encoded dots, symlinks out, another host).
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createAppProtocolHandler } from '../../main/electron/app-protocol.ts';
import { resolveInside } from '../../main/engine/views/safe-path.ts';
import { mimeTypeOf } from '../../main/engine/views/skill-view.ts';
import { CONTENT_SECURITY_POLICY } from '../../main/headless/security.ts';

let dir: string;
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
  handle = createAppProtocolHandler({
    rendererDir: renderer,
    // The engine's files for one brand "b1", from a folder (the real one is fileFor(app, …)).
    fileFor: async ([area, brand, ...rest]) => {
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

test('only GET and HEAD', async () => {
  expect((await get('app://brand-sync/', 'POST')).status).toBe(405);
});

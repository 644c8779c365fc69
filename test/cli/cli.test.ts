// The `brand-sync` command line, run as the real bin against the simulator over HTTP:
// output, --json documents, exit codes 0/1/2, one-line errors, and the key never shown.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimulator, type Simulator } from '../../simulator/index.ts';

const BIN = fileURLToPath(new URL('../../bin/brand-sync.js', import.meta.url));
const KEY = `sk-cli-${randomBytes(10).toString('hex')}`;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

let sim: Simulator;
let dir: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bin (never blocking this process: the simulator answers from here). */
function run(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        BRAND_SYNC_BASE_URL: sim.baseUrl,
        BRAND_SYNC_API_KEY: KEY,
        BRAND_SYNC_DATA_DIR: path.join(dir, 'data'),
        BRAND_SYNC_ROOT: path.join(dir, 'root'),
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      // The key never reaches the terminal, and no stack trace ever does.
      expect(stdout + stderr).not.toContain(KEY);
      expect(stderr).not.toMatch(/\n\s+at /);
      resolve({ code, stdout, stderr });
    });
  });
}

const lines = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');

beforeAll(async () => {
  sim = await startSimulator({ apiKeys: [KEY], speed: 1000, rateLimit: false });
  dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'brand-sync-cli-'));
});
afterAll(async () => {
  await sim?.close();
  if (dir) await fs.promises.rm(dir, { recursive: true, force: true });
});

// Independent of the simulator's state: run side by side.
describe.concurrent('usage', () => {
  test('--help lists the commands that exist; every command has --help', async () => {
    const top = await run(['--help']);
    expect(top.code).toBe(0);
    for (const name of ['credits', 'brands', 'simulator'])
      expect(top.stdout).toMatch(new RegExp(`^\\s+${name}\\b`, 'm'));
    expect(top.stdout).toContain('--base-url');
    expect(top.stdout).toContain('BRAND_SYNC_API_KEY');
    const create = await run(['brands', 'create', '--help']);
    expect(create.code).toBe(0);
    for (const option of [
      '--website',
      '--pdf',
      '--instagram',
      '--instructions',
      '--allow-duplicate',
      '--workspace',
      '--wait',
      '--json',
    ]) {
      expect(create.stdout).toContain(option);
    }
    const brands = await run(['brands', '--help']);
    for (const name of ['list', 'show', 'create', 'delete'])
      expect(brands.stdout).toMatch(new RegExp(`^\\s+${name}\\b`, 'm'));
  });

  test.each([
    [['brandz'], /unknown command 'brandz'/],
    [['brands', 'show'], /missing required argument 'id'/],
    [['credits', '--bogus'], /unknown option '--bogus'/],
    [['brands', 'create'], /required option '--website <url>' not specified/],
    [['brands', 'show', 'not-an-id'], /"not-an-id" is not a brand ID/],
    [['brands', 'create', '--website', 'acme'], /--website needs an http\(s\) URL/],
    [['simulator', '--port', '99999'], /--port <n>.*port number/],
  ])('bad usage %j: exit 2 with one clear line', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  test('no service configured: exit 2; not signed in: exit 1 (the operation failed); each names the setting', async () => {
    const noUrl = await run(['credits'], { BRAND_SYNC_BASE_URL: undefined });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('BRAND_SYNC_BASE_URL');
    const noKey = await run(['credits'], { BRAND_SYNC_API_KEY: undefined });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/^brand-sync: NOT_SIGNED_IN: not signed in/);
    expect(noKey.stderr).toContain('BRAND_SYNC_API_KEY');
  });

  test('--base-url beats the environment', async () => {
    const result = await run(['--base-url', sim.baseUrl, 'credits', '--json'], {
      BRAND_SYNC_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    expect(result.code).toBe(0);
  });
});

describe('credits', () => {
  test('human and --json, personal and team workspace', async () => {
    sim.control.setCredits(null, { balance: 1234, unlimited: false });
    const human = await run(['credits']);
    expect(human).toMatchObject({ code: 0, stdout: 'Credits of your personal workspace: 1,234\n' });
    const team = sim.control.addWorkspace({ name: 'Studio', unlimited: true });
    const json = await run(['credits', '--workspace', team.id, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ workspaceId: team.id, balance: 0, unlimited: true });
  });

  test('a service error: exit 1, one line with code and message; --json adds an error document', async () => {
    const missing = '0d0e0a0d-0000-4000-8000-00000000cafe';
    const human = await run(['credits', '--workspace', missing]);
    expect(human.code).toBe(1);
    expect(lines(human.stderr)).toEqual([
      expect.stringMatching(/^brand-sync: WORKSPACE_NOT_FOUND: workspace not found/),
    ]);
    const json = await run(['credits', '--workspace', missing, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: { code: 'WORKSPACE_NOT_FOUND', status: 404 },
    });
  });

  test('a 429 with Retry-After: the pause is told on stderr, then the command succeeds', async () => {
    sim.control.injectFault('GET /v1/credits', '429');
    const result = await run(['credits']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^Paused by the service until \d\d:\d\d:\d\d\.$/m);
    expect(result.stdout).toMatch(/^Credits of your personal workspace: /);
  });

  test('a refused key: exit 1 with UNAUTHORIZED, the key not shown', async () => {
    const result = await run(['credits'], { BRAND_SYNC_API_KEY: `${KEY}-wrong` });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^brand-sync: UNAUTHORIZED: /);
    expect(result.stderr).not.toContain(`${KEY}-wrong`);
  });
});

describe('brands', () => {
  test('list, show (human and --json), and unknown IDs', async () => {
    const { id } = await sim.control.seedBrand({
      name: 'Listed Co',
      website: 'https://listed.example.com',
    });
    const list = await run(['brands', 'list']);
    expect(list.code).toBe(0);
    expect(lines(list.stdout)[0]).toMatch(/^ID\s+STATUS\s+NAME\s+WORKSPACE$/);
    expect(list.stdout).toMatch(new RegExp(`${id}\\s+ready\\s+Listed Co\\s+Personal`));
    const json = JSON.parse((await run(['brands', 'list', '--json'])).stdout) as {
      brands: Array<Record<string, unknown>>;
    };
    expect(json.brands.find((b) => b.id === id)).toEqual({
      id,
      name: 'Listed Co',
      status: 'ready',
      url: 'https://listed.example.com',
      workspaceId: null,
      workspaceName: 'Personal',
      skillId: expect.stringMatching(UUID),
      failure: null,
      createdAt: expect.any(String),
    });
    const show = await run(['brands', 'show', id]);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/^Name:\s+Listed Co$/m);
    expect(show.stdout).toMatch(/^Status:\s+ready$/m);
    const showJson = JSON.parse((await run(['brands', 'show', id, '--json'])).stdout) as Record<
      string,
      unknown
    >;
    expect(showJson).toMatchObject({ id, status: 'ready', name: 'Listed Co' });
    const unknown = await run(['brands', 'show', '0d0e0a0d-0000-4000-8000-00000000beef']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^brand-sync: BRAND_NOT_FOUND: brand not found/);
  });

  test('create prints the ID; --wait --json ends ready', async () => {
    const before = sim.control.brands().length;
    const created = await run(['brands', 'create', '--website', 'https://created-one.example.com']);
    expect(created.code).toBe(0);
    const id = UUID.exec(created.stdout)?.[0];
    expect(sim.control.brands().find((b) => b.id === id)).toBeDefined();
    const waited = await run([
      'brands',
      'create',
      '--website',
      'https://created-two.example.com',
      '--instagram',
      'https://instagram.com/created',
      '--instructions',
      'Keep it calm.',
      '--wait',
      '--json',
    ]);
    expect(waited.code).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({
      status: 'ready',
      name: expect.any(String),
      idempotencyKey: expect.any(String),
    });
    expect(sim.control.brands().length).toBe(before + 2);
  });

  test('create whose first POST is processed but answered by a reset connection: one brand', async () => {
    const before = sim.control.brands().length;
    sim.control.injectFault('POST /v1/brands', 'reset-after');
    const result = await run([
      'brands',
      'create',
      '--website',
      'https://reset-after.example.com',
      '--json',
    ]);
    expect(result.code).toBe(0);
    const { id, idempotencyKey } = JSON.parse(result.stdout) as {
      id: string;
      idempotencyKey: string;
    };
    const sends = sim.control
      .log({ route: 'POST /v1/brands' })
      .filter((e) => e.idempotencyKey === idempotencyKey);
    expect(sends.map((e) => e.outcome)).toEqual(['reset-after', 'replayed']);
    expect(sends[0]?.created?.id).toBe(id);
    expect(sim.control.brands().length).toBe(before + 1);
  });

  test('create with a local PDF stages it first; a missing or non-PDF file is bad usage', async () => {
    const pdf = path.join(dir, 'guide.pdf');
    await fs.promises.writeFile(pdf, '%PDF-1.7\n% guide\n%%EOF\n');
    const created = await run([
      'brands',
      'create',
      '--website',
      'https://with-pdf.example.com',
      '--pdf',
      pdf,
    ]);
    expect(created.code).toBe(0);
    expect(sim.control.log({ route: 'POST /v1/uploads' }).length).toBeGreaterThan(0);
    const missing = await run([
      'brands',
      'create',
      '--website',
      'https://x.example.com',
      '--pdf',
      path.join(dir, 'nope.pdf'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.pdf: no such file/);
    const notPdf = path.join(dir, 'fake.pdf');
    await fs.promises.writeFile(notPdf, 'hello');
    const wrong = await run([
      'brands',
      'create',
      '--website',
      'https://x.example.com',
      '--pdf',
      notPdf,
    ]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/not a PDF file/);
  });

  test('a duplicate website is refused with the match; --allow-duplicate creates it', async () => {
    const { id } = await sim.control.seedBrand({ name: 'Dup', website: 'https://dup.example.com' });
    const refused = await run(['brands', 'create', '--website', 'https://dup.example.com']);
    expect(refused.code).toBe(1);
    expect(lines(refused.stderr)).toHaveLength(1);
    expect(refused.stderr).toContain(
      `DUPLICATE_BRAND: a brand with this website already exists: ${id} (Dup)`,
    );
    const allowed = await run([
      'brands',
      'create',
      '--website',
      'https://dup.example.com',
      '--allow-duplicate',
    ]);
    expect(allowed.code).toBe(0);
  });

  test('create --wait whose analysis fails: exit 1 with the failure code and what to do', async () => {
    // The forced outcome goes to the next analysis to finish: let earlier ones finish first.
    while (sim.control.brands().some((b) => b.status === 'analyzing'))
      await new Promise((r) => setTimeout(r, 5));
    sim.control.nextBrandOutcome('SCRAPE_FAILED');
    const result = await run([
      'brands',
      'create',
      '--website',
      'https://fails.example.com',
      '--wait',
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/ended failed/);
    expect(lines(result.stderr).at(-1)).toMatch(
      /^brand-sync: SCRAPE_FAILED: .* create the brand again later/,
    );
  });

  test('delete, then delete again', async () => {
    const { id } = await sim.control.seedBrand({ name: 'Short-lived' });
    const deleted = await run(['brands', 'delete', id]);
    expect(deleted).toMatchObject({ code: 0 });
    expect(deleted.stdout).toContain(`Deleted brand ${id} (Short-lived)`);
    const again = await run(['brands', 'delete', id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/BRAND_NOT_FOUND/);
  });
});

describe('simulator', () => {
  test('prints its base URL, serves it, and stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'simulator', '--port', '0', '--api-key', 'sk-sim-cli', '--speed', '10'],
      {
        env: { PATH: process.env.PATH, HOME: dir },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const baseUrl = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        const line = stdout.split('\n')[0];
        if (stdout.includes('\n') && line) resolve(line);
      });
      child.on('exit', (code) => reject(new Error(`simulator exited early (${code}): ${stderr}`)));
    });
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const credits = await run(['credits', '--json'], {
      BRAND_SYNC_BASE_URL: baseUrl,
      BRAND_SYNC_API_KEY: 'sk-sim-cli',
    });
    expect(credits.code).toBe(0);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  test('a bad fault spec is bad usage', async () => {
    const result = await run(['simulator', '--faults', 'explode=2']);
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(/--faults: .*unknown setting "explode"/);
  });
});

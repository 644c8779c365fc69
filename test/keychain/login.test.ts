// `login` / `logout` and the key's only home, the OS keychain (a real Secret Service here):
// the key arrives on stdin, is checked, stored, used by later commands, never written to the
// data dir, and removed by logout.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Entry } from '@napi-rs/keyring';
import { startSimulator, type Simulator } from '../../simulator/index.ts';
import { KEYCHAIN_SERVICE, keychainAccount } from '../../main/engine/account/keychain.ts';
import { BIN, runCli, type CliRun } from '../support/run-cli.ts';
import {
  secretServiceMissing,
  startSecretService,
  type SecretService,
} from '../support/secret-service.ts';

const KEY = 'sk-keychain-test-5f0c1e2d3b4a';

/**
 * The kernel keyring's entry for a service (memory only, shared by this user's processes),
 * where the keychain library on its own falls back when the Secret Service does not answer;
 * null where this kernel has none.
 */
function kernelEntry(baseUrl: string): Entry | null {
  try {
    return new Entry(KEYCHAIN_SERVICE, keychainAccount(baseUrl), { linux: { store: 'keyutils' } });
  } catch {
    return null;
  }
}
const kernelKeyringMissing =
  process.platform !== 'linux' || kernelEntry('http://127.0.0.1:9/') === null;

describe.skipIf(secretServiceMissing !== null)(`keychain ${secretServiceMissing ?? ''}`, () => {
  let sim: Simulator;
  let keyring: SecretService;
  let dir: string;

  beforeAll(async () => {
    sim = await startSimulator({ apiKeys: [KEY], rateLimit: false });
    keyring = await startSecretService();
    dir = await mkdtemp(path.join(os.tmpdir(), 'cli-keychain-'));
  });
  afterAll(async () => {
    keyring?.stop();
    await sim?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const env = (extra: Record<string, string | undefined> = {}) => ({
    HOME: dir,
    BRAND_SYNC_BASE_URL: sim.baseUrl,
    BRAND_SYNC_DATA_DIR: path.join(dir, 'data'),
    BRAND_SYNC_ROOT: path.join(dir, 'root'),
    ...keyring.env,
    ...extra,
  });

  /** The bin with `input` on stdin (how a key is handed to `login`). */
  function withStdin(args: string[], input: string, extra = {}): Promise<CliRun> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        env: { PATH: process.env.PATH, ...env(extra) },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(input);
    });
  }

  test('a refused key is not stored', async () => {
    const login = await withStdin(['login'], 'sk-wrong-key\n');
    expect(login.code).toBe(1);
    expect(login.stderr).toMatch(/UNAUTHORIZED: the service refused this key; nothing was stored/);
    expect(login.stderr + login.stdout).not.toContain('sk-wrong-key');
    const credits = await runCli(['credits'], env());
    // Not bad usage: the command was right, the operation could not run.
    expect(credits.code).toBe(1);
    expect(credits.stderr).toMatch(/not signed in: run `brand-sync login`/);
  });

  test('login stores the key; later commands use it; it never reaches the data dir; logout removes it', async () => {
    const login = await withStdin(['login'], `${KEY}\n`);
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toMatch(/Signed in to .*; the key is in the OS keychain/);

    const credits = await runCli(['credits'], env(), KEY);
    expect(credits.code, credits.stderr).toBe(0);

    await sim.control.seedBrand({ name: 'Keyed', status: 'ready' });
    const sync = await runCli(['sync', '--once'], env(), KEY);
    expect(sync.code).toBe(0);
    for (const file of await readdir(path.join(dir, 'data'), { recursive: true })) {
      const bytes = await readFile(path.join(dir, 'data', file)).catch(() => Buffer.alloc(0));
      expect(bytes.includes(KEY), `${file} holds the key`).toBe(false);
    }

    const logout = await runCli(['logout'], env(), KEY);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toMatch(/the key was removed from the keychain/);
    const after = await runCli(['credits'], env(), KEY);
    expect(after.code).toBe(1);
    const again = await runCli(['logout'], env(), KEY);
    expect(again.stdout).toMatch(/No key was stored/);
  });

  test('--bearer stores an access token that is then sent as Authorization: Bearer', async () => {
    const login = await withStdin(['login', '--bearer'], KEY);
    expect(login.code, login.stderr).toBe(0);
    const credits = await runCli(['credits'], env(), KEY);
    expect(credits.code, credits.stderr).toBe(0);
    await runCli(['logout'], env(), KEY);
  });

  test('a key given as an argument is refused without being printed back', async () => {
    const login = await withStdin(['login', 'sk-typed-as-argument-77'], '');
    expect(login.code).toBe(2);
    expect(login.stderr).toMatch(/login takes no argument: the key comes on stdin/);
    expect(login.stderr + login.stdout).not.toContain('sk-typed-as-argument-77');
  });

  test('an empty stdin is bad usage', async () => {
    const login = await withStdin(['login'], '\n');
    expect(login.code).toBe(2);
    expect(login.stderr).toMatch(/no key on stdin/);
  });

  test('with no keychain reachable, login fails clearly and names the environment variable', async () => {
    const login = await withStdin(['login'], KEY, {
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(dir, 'no-bus')}`,
    });
    expect(login.code).toBe(1);
    expect(login.stderr).toMatch(/KEYCHAIN_UNAVAILABLE: no keychain could be reached/);
    expect(login.stderr).toMatch(/BRAND_SYNC_API_KEY/);
    expect(login.stderr).not.toContain(KEY);
    // Not kept elsewhere either: the library's own fallback wrote it to the kernel keyring.
    if (!kernelKeyringMissing) expect(kernelEntry(sim.baseUrl)?.getPassword()).toBeNull();
  });

  test.skipIf(kernelKeyringMissing)(
    'a key an older release left in the kernel keyring is never read, and logout removes it',
    async () => {
      const stale = JSON.stringify({ kind: 'api-key', secret: 'sk-stale-kernel-copy-31' });
      kernelEntry(sim.baseUrl)?.setPassword(stale);
      const credits = await runCli(['credits'], env());
      expect(credits.code).toBe(1);
      expect(credits.stderr).toMatch(/not signed in: run `brand-sync login`/);

      const logout = await runCli(['logout'], env());
      expect(logout.stdout).toMatch(/No key was stored/);
      expect(kernelEntry(sim.baseUrl)?.getPassword()).toBeNull();
    },
  );
});

// Sign in and out, the use case behind `login`/`logout` and the window's sign-in, in this
// process: the simulator over real HTTP, a real Secret Service (the keychain), and for the
// app runtime a real SQLite store. The key is checked before it is kept, a refusal and an
// unreachable service are told apart by code, and the key is in no error and no database.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSimulator, type Simulator } from '../../simulator/index.ts';
import {
  checkKey,
  osKeyStore,
  signIn,
  SignInError,
  signOut,
} from '../../main/engine/account/sign-in.ts';
import { AppRuntime } from '../../main/engine/app/app-runtime.ts';
import { toBridgeError } from '../../main/engine/app/bridge-dispatch.ts';
import {
  secretServiceMissing,
  startSecretService,
  type SecretService,
} from '../support/secret-service.ts';

const KEY = 'sk-sign-in-test-7c1d9e0f2a3b';

describe.skipIf(secretServiceMissing !== null)(`sign in ${secretServiceMissing ?? ''}`, () => {
  let sim: Simulator;
  let keyring: SecretService;
  let dir: string;
  const busBefore = process.env.DBUS_SESSION_BUS_ADDRESS;

  beforeAll(async () => {
    sim = await startSimulator({ apiKeys: [KEY], rateLimit: false });
    keyring = await startSecretService();
    // The keychain library finds the Secret Service through this process's environment.
    process.env.DBUS_SESSION_BUS_ADDRESS = keyring.env.DBUS_SESSION_BUS_ADDRESS;
    dir = await mkdtemp(path.join(os.tmpdir(), 'sign-in-'));
  });
  afterAll(async () => {
    if (busBefore === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
    else process.env.DBUS_SESSION_BUS_ADDRESS = busBefore;
    keyring?.stop();
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const creditsAsked = () => sim.control.log({ route: 'GET /v1/credits' }).length;

  async function refusal(promise: Promise<unknown>): Promise<SignInError> {
    const error = await promise.then(
      () => expect.unreachable('the sign-in should have been refused'),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SignInError);
    expect(JSON.stringify(toBridgeError(error))).not.toContain('sk-');
    return error as SignInError;
  }

  test('a good key is checked, then kept in the keychain; sign-out removes it', async () => {
    const asked = creditsAsked();
    const signedIn = await signIn({
      baseUrl: sim.baseUrl,
      secret: KEY,
      kind: 'bearer',
      keyStore: osKeyStore,
    });
    expect(signedIn).toEqual({ baseUrl: sim.baseUrl, kind: 'bearer', stored: true });
    expect(creditsAsked()).toBe(asked + 1);
    expect(osKeyStore.load(sim.baseUrl)).toEqual({ kind: 'bearer', secret: KEY });

    expect(signOut(osKeyStore, sim.baseUrl)).toEqual({ baseUrl: sim.baseUrl, removed: true });
    expect(osKeyStore.load(sim.baseUrl)).toBeUndefined();
    expect(signOut(osKeyStore, sim.baseUrl).removed).toBe(false);
  });

  test('a refused key is AUTH_REFUSED with the service’s code, and nothing is kept', async () => {
    const error = await refusal(
      signIn({
        baseUrl: sim.baseUrl,
        secret: 'sk-wrong-key',
        kind: 'api-key',
        keyStore: osKeyStore,
      }),
    );
    expect(error.code).toBe('AUTH_REFUSED');
    expect(error.retryable).toBe(false);
    expect(error.data).toEqual({ code: 'UNAUTHORIZED' });
    expect(error.message).toBe(
      'The service refused this key: check it and try again. Nothing was stored.',
    );
    expect(osKeyStore.load(sim.baseUrl)).toBeUndefined();
  });

  test('a service that does not answer is SERVICE_UNREACHABLE, not a refusal, and nothing is kept', async () => {
    const gone = await startSimulator({ apiKeys: [KEY], rateLimit: false });
    const baseUrl = gone.baseUrl;
    await gone.close();
    const error = await refusal(checkKey({ baseUrl, secret: KEY, kind: 'api-key' }));
    expect(error.code).toBe('SERVICE_UNREACHABLE');
    expect(error.retryable).toBe(true);
    expect(error.data).toEqual({ code: 'NETWORK_ERROR' });
    expect(error.message).toContain(`The service at ${baseUrl} could not be reached`);
    expect(osKeyStore.load(baseUrl)).toBeUndefined();
  });

  test('an empty key or an address a key may not go to is refused before anything is sent', async () => {
    const asked = creditsAsked();
    const empty = await refusal(
      signIn({ baseUrl: sim.baseUrl, secret: '  ', kind: 'api-key', keyStore: osKeyStore }),
    );
    expect(empty.code).toBe('INVALID_KEY');
    const clear = await refusal(
      signIn({
        baseUrl: 'http://example.com/v1',
        secret: KEY,
        kind: 'api-key',
        keyStore: osKeyStore,
      }),
    );
    expect(clear.code).toBe('INVALID_INPUT');
    expect(clear.message).toMatch(/never sent in the clear/);
    expect(creditsAsked()).toBe(asked);
  });

  test('the app runtime signs in and out through it: the keychain holds the key, the database never', async () => {
    const dataDir = path.join(dir, 'data');
    const app = await AppRuntime.start({
      dataDir,
      root: path.join(dir, 'root'),
      baseUrl: sim.baseUrl,
      host: { kind: 'browser' },
      keyStore: osKeyStore,
    });
    try {
      const wrong = await refusal(app.signIn('sk-wrong-key', 'api-key'));
      expect(toBridgeError(wrong)).toEqual({
        code: 'AUTH_REFUSED',
        message: 'The service refused this key: check it and try again. Nothing was stored.',
        retryable: false,
        data: { code: 'UNAUTHORIZED' },
      });
      expect(app.session.source).toBeNull();

      await app.signIn(KEY, 'api-key');
      expect(app.session.source).toBe('keychain');
      expect(app.engine).not.toBeNull();
      expect(osKeyStore.load(sim.baseUrl)).toEqual({ kind: 'api-key', secret: KEY });

      await app.signOut();
      expect(app.session.source).toBeNull();
      expect(app.engine).toBeNull();
      expect(osKeyStore.load(sim.baseUrl)).toBeUndefined();
    } finally {
      await app.close();
    }
    for (const file of await readdir(dataDir, { recursive: true })) {
      const bytes = await readFile(path.join(dataDir, file)).catch(() => Buffer.alloc(0));
      expect(bytes.includes(KEY), `${file} holds the key`).toBe(false);
    }
  });
});

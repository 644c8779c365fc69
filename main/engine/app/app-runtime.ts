// One running app, whatever its face (the headless host, the desktop shell): the store kept
// open for the window's queries, the engine when there is a service and a key, the numbered
// event stream, and the session (sign in, sign out, a new sync root or service: the engine
// is closed and opened again, its queue kept). No UI and no transport here.
import { createApiClient, type ApiClient, type Credentials } from '../api/index.ts';
import {
  checkKey,
  keepKey,
  osKeyStore,
  signOut,
  validateSignIn,
  type KeyStore,
} from '../account/sign-in.ts';
import { BRAND_FOLLOW_FEATURE, type BrandFollowFeature } from '../brands/follow-brand.ts';
import { Engine, type FeatureFactory } from '../core/engine.ts';
import { defaultFeatures } from '../core/features.ts';
import { defaultSyncRoot } from '../core/paths.ts';
import { openStore, type Store } from '../store/index.ts';
import { AppError } from './app-errors.ts';
import { baseUrlSetting, syncRootSetting } from './app-settings.ts';
import { EventJournal } from './event-journal.ts';
import { feedEvents } from './event-feed.ts';
import { ConnectionProbe } from './connection-probe.ts';
import { mediaFile } from './media.ts';

// Where the key lives: defined with the sign-in use case, named here for the hosts and tests.
export { osKeyStore, type KeyStore };

/** What only the host can do (open a folder in the file manager, start at login). */
export interface HostAbilities {
  kind: 'browser' | 'desktop';
  openPath?: (path: string) => Promise<boolean>;
  loginItem?: { get(): boolean; set(enabled: boolean): void };
  /** Why start at login is not offered here. */
  loginItemReason?: string;
}

export interface AppRuntimeOptions {
  dataDir: string;
  /** Fixed for this process by a flag or the environment (the stored setting waits). */
  root?: string;
  baseUrl?: string;
  /** Credentials for this process only (environment, demo); never stored. */
  credentials?: Credentials & { source: 'environment' | 'demo' };
  keyStore?: KeyStore;
  host: HostAbilities;
  features?: readonly FeatureFactory[];
  createClient?: (baseUrl: string, credentials: Credentials) => ApiClient;
  signal?: AbortSignal;
}

export interface SessionState {
  credentials: Credentials | undefined;
  source: 'keychain' | 'environment' | 'demo' | null;
  keychainProblem: string | null;
}

export class AppRuntime {
  readonly journal = new EventJournal();
  readonly store: Store;
  readonly dataDir: string;
  readonly host: HostAbilities;
  readonly demo: boolean;
  readonly #options: AppRuntimeOptions;
  readonly #keyStore: KeyStore;
  #engine: Engine | null = null;
  #stopFeed: (() => void) | null = null;
  #probe: ConnectionProbe | null = null;
  #offEngine: (() => void)[] = [];
  #session: SessionState = { credentials: undefined, source: null, keychainProblem: null };
  #transition: Promise<void> = Promise.resolve();
  #closed = false;

  private constructor(options: AppRuntimeOptions, store: Store) {
    this.#options = options;
    this.store = store;
    this.dataDir = options.dataDir;
    this.host = options.host;
    this.demo = options.credentials?.source === 'demo';
    this.#keyStore = options.keyStore ?? osKeyStore;
  }

  /** Opens the store, finds the key (process, then keychain) and starts the engine if it can. */
  static async start(options: AppRuntimeOptions): Promise<AppRuntime> {
    const store = openStore({ dataDir: options.dataDir });
    const runtime = new AppRuntime(options, store);
    try {
      runtime.#session = runtime.#findCredentials();
      await runtime.#openEngine();
    } catch (error) {
      await runtime.close();
      throw error;
    }
    return runtime;
  }

  get engine(): Engine | null {
    return this.#engine;
  }

  get session(): Readonly<SessionState> {
    return this.#session;
  }

  /** The sync root in force: the process's, else the window's choice, else the default. */
  get root(): string {
    return this.#options.root ?? this.store.settings.read(syncRootSetting) ?? defaultSyncRoot();
  }

  get rootFixed(): boolean {
    return this.#options.root !== undefined;
  }

  get baseUrl(): string | null {
    return this.#options.baseUrl ?? this.store.settings.read(baseUrlSetting);
  }

  /**
   * The service cannot change in this process: named at start (a flag, the environment), or
   * the key came with the process (environment, demo) and so belongs to the service it was
   * started with, which no setting may swap for another address.
   */
  get baseUrlFixed(): boolean {
    return this.baseUrlFixedBy !== null;
  }

  get baseUrlFixedBy(): 'start' | 'credentials' | null {
    if (this.#options.baseUrl !== undefined) return 'start';
    return this.#options.credentials !== undefined ? 'credentials' : null;
  }

  /** The secret in use, for redaction only: never sent anywhere. */
  get secret(): string | undefined {
    return this.#session.credentials?.secret;
  }

  /** The engine, or a clear refusal when there is no service or key. */
  requireEngine(): Engine {
    if (this.#engine !== null) return this.#engine;
    if (this.baseUrl === null) {
      throw new AppError(
        'NO_SERVICE',
        'No service is configured: choose one in Settings, or start the demo.',
      );
    }
    throw new AppError(
      'NOT_SIGNED_IN',
      'Not signed in: sign in with an API key or an access token first.',
    );
  }

  /**
   * The engine's sign-in (address and key checked, the key checked with the service), then
   * the key kept in the keychain and the engine started with it. A refused key changes nothing.
   */
  async signIn(secret: string, kind: Credentials['kind'], baseUrl?: string): Promise<void> {
    const target = baseUrl ?? this.baseUrl;
    if (target === null || target === undefined) {
      throw new AppError('NO_SERVICE', 'No service is configured: give its URL with the key.');
    }
    validateSignIn({ baseUrl: target, secret });
    // The engine runs on this.baseUrl: a key checked against another address would be kept
    // for a service the engine never talks to.
    if (baseUrl !== undefined && baseUrl !== this.baseUrl && this.baseUrlFixed) {
      throw new AppError(
        'SERVICE_FIXED',
        this.baseUrlFixedBy === 'start'
          ? 'The service address is set for this run by --base-url or BRAND_SYNC_BASE_URL.'
          : 'The service address belongs to the key this run was started with.',
      );
    }
    const checked = await checkKey({
      baseUrl: target,
      secret,
      kind,
      createClient: (url, credentials) => this.#client(url, credentials),
      ...(this.#options.signal ? { signal: this.#options.signal } : {}),
    });
    // Kept and started in one transition, so that a sign-out or a new service meanwhile
    // comes wholly before or after.
    await this.#serially(async () => {
      keepKey(this.demo ? null : this.#keyStore, checked);
      if (baseUrl !== undefined && !this.baseUrlFixed)
        this.store.settings.write(baseUrlSetting, baseUrl);
      await this.#closeEngine();
      this.#session = {
        credentials: checked.credentials,
        source: this.demo ? 'demo' : 'keychain',
        keychainProblem: null,
      };
      await this.#openEngine();
    });
    this.journal.push({ type: 'session' });
  }

  /** Removes the key from the keychain and stops syncing; nothing mirrored is deleted. */
  async signOut(): Promise<void> {
    await this.#serially(async () => {
      await this.#closeEngine();
      const url = this.baseUrl;
      if (url !== null && this.#session.source === 'keychain') signOut(this.#keyStore, url);
      this.#session = { credentials: undefined, source: null, keychainProblem: null };
    });
    this.journal.push({ type: 'session' });
  }

  /** A new sync root or service takes effect: the engine restarts on it (the queue is kept). */
  async reconfigure(change: { root?: string; baseUrl?: string }): Promise<void> {
    await this.#serially(async () => {
      if (change.root !== undefined) this.store.settings.write(syncRootSetting, change.root);
      if (change.baseUrl !== undefined) this.store.settings.write(baseUrlSetting, change.baseUrl);
      await this.#closeEngine();
      if (change.baseUrl !== undefined) this.#session = this.#findCredentials();
      await this.#openEngine();
    });
    this.journal.push({ type: 'settings' });
    this.journal.push({ type: 'session' });
  }

  /** Follows a brand created here until it settles (the window shows its end at once). */
  followBrand(brandId: string): void {
    const feature = this.#engine?.features.find((f) => f.name === BRAND_FOLLOW_FEATURE) as
      BrandFollowFeature | undefined;
    feature?.follow(brandId);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#transition.catch(() => undefined);
    await this.#closeEngine();
    this.store.close();
  }

  #serially(work: () => Promise<void>): Promise<void> {
    const next = this.#transition.then(work, work);
    this.#transition = next.catch(() => undefined);
    return next;
  }

  #findCredentials(): SessionState {
    const given = this.#options.credentials;
    if (given !== undefined) {
      return {
        credentials: { kind: given.kind, secret: given.secret },
        source: given.source,
        keychainProblem: null,
      };
    }
    const url = this.baseUrl;
    if (url === null) return { credentials: undefined, source: null, keychainProblem: null };
    try {
      const stored = this.#keyStore.load(url);
      return { credentials: stored, source: stored ? 'keychain' : null, keychainProblem: null };
    } catch (error) {
      return {
        credentials: undefined,
        source: null,
        keychainProblem: error instanceof Error ? error.message : String(error),
      };
    }
  }

  #client(baseUrl: string, credentials: Credentials): ApiClient {
    if (this.#options.createClient) return this.#options.createClient(baseUrl, credentials);
    return createApiClient({
      baseUrl,
      credentials,
      ...(this.#options.signal ? { signal: this.#options.signal } : {}),
    });
  }

  async #openEngine(): Promise<void> {
    const url = this.baseUrl;
    const credentials = this.#session.credentials;
    if (this.#closed || url === null || credentials === undefined) return;
    const engine = Engine.open({
      dataDir: this.dataDir,
      root: this.root,
      client: this.#client(url, credentials),
      features: this.#options.features ?? defaultFeatures,
      store: this.store,
    });
    this.#engine = engine;
    this.#stopFeed = feedEvents(engine, this.journal);
    const probe = new ConnectionProbe(engine, { watched: () => this.journal.subscribers > 0 });
    this.#probe = probe;
    this.#offEngine = [
      this.journal.onSubscribers(() => probe.check()),
      // A finished image edit's result is fetched into the media cache for the window.
      engine.events.on('image:updated', ({ edit }) => {
        if (edit.status === 'completed') void mediaFile(this, edit.imageId);
      }),
    ];
    await engine.start();
  }

  async #closeEngine(): Promise<void> {
    const engine = this.#engine;
    if (engine === null) return;
    this.#engine = null;
    this.#probe?.stop();
    this.#probe = null;
    for (const off of this.#offEngine) off();
    this.#offEngine = [];
    this.#stopFeed?.();
    this.#stopFeed = null;
    await engine.close();
  }
}

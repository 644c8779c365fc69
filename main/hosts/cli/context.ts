// What a command runs with: the settings resolved from options and environment, the
// output, a cancellation signal, and the API client, made only when a command needs it.
import {
  createApiClient,
  pauseNote,
  type ApiClient,
  type Credentials,
} from '../../engine/api/index.ts';
import { defaultDataDir, defaultSyncRoot } from '../../engine/core/paths.ts';
import { Keychain, KeychainError } from '../../engine/account/keychain.ts';
import { serviceAddressProblem } from '../../engine/account/service-address.ts';
import { CommandFailure, Output, UsageError } from './output.ts';
import { onSlowdown } from './slowdown-notes.ts';

/** Environment variables the CLI reads (docs/product.md). */
export const ENV = {
  baseUrl: 'BRAND_SYNC_BASE_URL',
  dataDir: 'BRAND_SYNC_DATA_DIR',
  root: 'BRAND_SYNC_ROOT',
  apiKey: 'BRAND_SYNC_API_KEY',
  /** An OAuth access token, sent as `Authorization: Bearer` (a headless machine's other way in). */
  accessToken: 'BRAND_SYNC_ACCESS_TOKEN',
} as const;

export interface GlobalOptions {
  baseUrl?: string;
  dataDir?: string;
  root?: string;
  json?: boolean;
}

export interface CliConfig {
  baseUrl: string | undefined;
  dataDir: string;
  root: string;
}

export interface CliContext {
  readonly config: CliConfig;
  readonly output: Output;
  /** Fires on SIGINT/SIGTERM so that waits and transfers stop cleanly. */
  readonly signal: AbortSignal;
  /** The client for the configured service; a UsageError when no service or key is set. */
  client(): ApiClient;
}

export interface ContextDeps {
  env: Record<string, string | undefined>;
  signal: AbortSignal;
  output?: Output;
}

/** Commander has already merged `--x` with its environment variable into `options`. */
export function resolveConfig(
  options: GlobalOptions,
  env: Record<string, string | undefined>,
): CliConfig {
  const baseUrl = nonEmpty(options.baseUrl) ?? nonEmpty(env[ENV.baseUrl]);
  const problem = baseUrl === undefined ? null : serviceAddressProblem(baseUrl);
  if (problem !== null) throw new UsageError(`--base-url (or ${ENV.baseUrl}): ${problem}`);
  return {
    baseUrl,
    dataDir: nonEmpty(options.dataDir) ?? nonEmpty(env[ENV.dataDir]) ?? defaultDataDir(),
    root: nonEmpty(options.root) ?? nonEmpty(env[ENV.root]) ?? defaultSyncRoot(),
  };
}

/**
 * The key from the environment, for a process where no keychain can be reached (never an
 * argument, which other users can read in the process list). Otherwise `login` put it in
 * the keychain.
 */
export function credentialsFrom(env: Record<string, string | undefined>): Credentials | undefined {
  const key = nonEmpty(env[ENV.apiKey]);
  if (key) return { kind: 'api-key', secret: key };
  const token = nonEmpty(env[ENV.accessToken]);
  return token ? { kind: 'bearer', secret: token } : undefined;
}

export function createContext(options: GlobalOptions, deps: ContextDeps): CliContext {
  const config = resolveConfig(options, deps.env);
  const fromEnv = credentialsFrom(deps.env);
  const output = deps.output ?? new Output({ json: options.json === true });
  output.addSecret(fromEnv?.secret);
  let client: ApiClient | undefined;
  return {
    config,
    output,
    signal: deps.signal,
    client() {
      if (client) return client;
      if (!config.baseUrl) {
        throw new UsageError(`no service configured: pass --base-url URL or set ${ENV.baseUrl}.`);
      }
      const credentials = fromEnv ?? credentialsFromKeychain(config.baseUrl);
      output.addSecret(credentials.secret);
      try {
        client = createApiClient({ baseUrl: config.baseUrl, credentials, signal: deps.signal });
      } catch (error) {
        throw new UsageError(error instanceof Error ? error.message : String(error));
      }
      // A long silence explained: the service asked for a pause (429 with Retry-After).
      onSlowdown(client.rateGate, (until) => output.note(pauseNote(until)));
      return client;
    },
  };
}

/** The key `login` stored for this service; a clear usage error when there is none. */
function credentialsFromKeychain(baseUrl: string): Credentials {
  let stored: Credentials | undefined;
  try {
    stored = new Keychain(baseUrl).load();
  } catch (error) {
    if (error instanceof KeychainError) {
      throw new CommandFailure('NOT_SIGNED_IN', `not signed in: ${error.message}`);
    }
    throw error;
  }
  if (!stored) {
    // Not bad usage: the command was right, the operation cannot run (exit 1).
    throw new CommandFailure(
      'NOT_SIGNED_IN',
      `not signed in: run \`brand-sync login\` (the key goes to the OS keychain), or set ${ENV.apiKey} (or ${ENV.accessToken} for an OAuth access token) for this process.`,
    );
  }
  return stored;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

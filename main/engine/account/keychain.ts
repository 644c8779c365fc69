// The API key's only home: the OS keychain (macOS Keychain, Windows Credential Manager, the
// Secret Service on Linux) through @napi-rs/keyring. One entry per service base URL, so a
// demo or staging service never sees the production key. Nothing here logs or keeps the key.
import { Entry } from '@napi-rs/keyring';
import type { Credentials } from '../api/index.ts';
import { CodedError } from '../core/coded-error.ts';

export const KEYCHAIN_SERVICE = 'Brand Sync';

export type KeychainErrorCode = 'KEYCHAIN_UNAVAILABLE' | 'KEYCHAIN_CORRUPT';

export class KeychainError extends CodedError<KeychainErrorCode> {}

/** The entry's account: the service's origin and path, so each service has its own key. */
export function keychainAccount(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return baseUrl.trim();
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export class Keychain {
  readonly #entry: () => Entry;

  constructor(baseUrl: string, service: string = KEYCHAIN_SERVICE) {
    const account = keychainAccount(baseUrl);
    this.#entry = () => new Entry(service, account);
  }

  /** The stored credentials, or undefined when none are stored. */
  load(): Credentials | undefined {
    const stored = this.#call(() => this.#entry().getPassword());
    if (stored === null || stored === undefined) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(stored);
    } catch {
      parsed = undefined;
    }
    const value = parsed as Partial<Credentials> | undefined;
    if (
      (value?.kind !== 'api-key' && value?.kind !== 'bearer') ||
      typeof value.secret !== 'string' ||
      value.secret === ''
    ) {
      // Never echo what was found: it may be a key.
      throw new KeychainError(
        'KEYCHAIN_CORRUPT',
        'the keychain entry of Brand Sync is not readable; run `brand-sync login` again.',
      );
    }
    return { kind: value.kind, secret: value.secret };
  }

  save(credentials: Credentials): void {
    const text = JSON.stringify({ kind: credentials.kind, secret: credentials.secret });
    this.#call(() => this.#entry().setPassword(text));
  }

  /** Removes the entry; false when there was none. */
  remove(): boolean {
    return this.#call(() => this.#entry().deletePassword());
  }

  #call<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      // The library's message names the platform problem (no D-Bus, locked store), never the secret.
      const reason = error instanceof Error ? error.message : String(error);
      throw new KeychainError(
        'KEYCHAIN_UNAVAILABLE',
        `no keychain could be reached (${reason}); on a headless server set BRAND_SYNC_API_KEY for the process instead.`,
      );
    }
  }
}

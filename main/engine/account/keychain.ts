// The API key's only home: the OS keychain (macOS Keychain, Windows Credential Manager, the
// Secret Service on Linux) through @napi-rs/keyring. One entry per service base URL, so a
// demo or staging service never sees the production key. Nothing here logs or keeps the key.
import { Entry, type EntryOptions } from '@napi-rs/keyring';
import type { Credentials } from '../api/index.ts';
import { CodedError } from '../core/coded-error.ts';

export const KEYCHAIN_SERVICE = 'Brand Sync';

export type KeychainErrorCode = 'KEYCHAIN_UNAVAILABLE' | 'KEYCHAIN_CORRUPT';

export class KeychainError extends CodedError<KeychainErrorCode> {}

// On Linux the binding otherwise falls back, silently and per entry, to the kernel keyring
// when the Secret Service does not answer (a busy or restarted daemon, a bus at its
// connection limit): a key written there lives on in kernel memory after a failed login,
// and a read there finds a stale key, or none, while the person is signed in. Pinned, an
// unreachable Secret Service is KEYCHAIN_UNAVAILABLE, said as such. Ignored elsewhere.
const SECRET_SERVICE: EntryOptions = { linux: { store: 'secret-service' } };
const KERNEL_KEYRING: EntryOptions = { linux: { store: 'keyutils' } };

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
  readonly #kernelEntry: () => Entry;

  constructor(baseUrl: string, service: string = KEYCHAIN_SERVICE) {
    const account = keychainAccount(baseUrl);
    this.#entry = () => new Entry(service, account, SECRET_SERVICE);
    this.#kernelEntry = () => new Entry(service, account, KERNEL_KEYRING);
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
    this.#removeKernelCopy();
    return this.#call(() => this.#entry().deletePassword());
  }

  /**
   * A release before the pin above may have left the key in the kernel keyring (memory only,
   * until reboot) when the Secret Service did not answer: sign-out removes it there too.
   */
  #removeKernelCopy(): void {
    if (process.platform !== 'linux') return;
    try {
      this.#kernelEntry().deletePassword();
    } catch {
      // No kernel keyring here (a container without keyutils): nothing can have been left.
    }
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

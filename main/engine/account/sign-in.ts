// Sign in and sign out, the one use case both faces call (`brand-sync login`/`logout`, the
// window's sign-in through the app runtime): the key's format is checked, the key is checked
// with the service (GET /credits), and only then kept in the OS keychain. The faces read the
// key and word the outcome; the refusals here are typed, with codes, in the engine's words.
// The key is never part of an error, a log line or an answer.
import { createApiClient, isApiError, type ApiClient, type Credentials } from '../api/index.ts';
import { CodedError } from '../core/coded-error.ts';
import { Keychain } from './keychain.ts';
import { serviceAddressProblem } from './service-address.ts';

/** Where the key lives: the OS keychain, one entry per service. */
export interface KeyStore {
  load(baseUrl: string): Credentials | undefined;
  save(baseUrl: string, credentials: Credentials): void;
  remove(baseUrl: string): boolean;
}

export const osKeyStore: KeyStore = {
  load: (baseUrl) => new Keychain(baseUrl).load(),
  save: (baseUrl, credentials) => new Keychain(baseUrl).save(credentials),
  remove: (baseUrl) => new Keychain(baseUrl).remove(),
};

export type SignInErrorCode =
  /** The address is not one a key may be sent to (serviceAddressProblem's words). */
  | 'INVALID_INPUT'
  /** No key was given. */
  | 'INVALID_KEY'
  /** The service answered and refused the key. */
  | 'AUTH_REFUSED'
  /** No answer came: the key was not checked. */
  | 'SERVICE_UNREACHABLE';

export class SignInError extends CodedError<SignInErrorCode> {
  readonly retryable: boolean;
  /** The service's own code behind a refusal or an unreachable service (UNAUTHORIZED, NETWORK_ERROR). */
  readonly data: { code: string | null } | undefined;
  constructor(
    code: SignInErrorCode,
    message: string,
    options: { retryable?: boolean; serviceCode?: string | null; cause?: unknown } = {},
  ) {
    super(code, message);
    this.retryable = options.retryable ?? false;
    this.data = options.serviceCode === undefined ? undefined : { code: options.serviceCode };
    // The API error behind it (never holds the key): a face that words it itself reads it here.
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

export interface SignInRequest {
  baseUrl: string;
  secret: string;
  kind: Credentials['kind'];
  signal?: AbortSignal;
  /** The client the key is checked with; by default the API client on baseUrl. */
  createClient?: (baseUrl: string, credentials: Credentials) => ApiClient;
}

/** A key the service accepted, for the service it was checked with. */
export interface CheckedKey {
  baseUrl: string;
  credentials: Credentials;
}

export interface SignedIn {
  baseUrl: string;
  kind: Credentials['kind'];
  /** False when nothing was kept (a demo's key lives only in its process). */
  stored: boolean;
}

/** The request's address and key, refused before anything is sent when they cannot be used. */
export function validateSignIn(request: Pick<SignInRequest, 'baseUrl' | 'secret'>): void {
  const problem = serviceAddressProblem(request.baseUrl);
  if (problem !== null) throw new SignInError('INVALID_INPUT', problem);
  if (request.secret.trim() === '') {
    throw new SignInError(
      'INVALID_KEY',
      'No key was given: paste the API key or the access token.',
    );
  }
}

/** Validates, then asks the service (GET /credits); a refused key or no answer is a SignInError. */
export async function checkKey(request: SignInRequest): Promise<CheckedKey> {
  validateSignIn(request);
  const { baseUrl, signal } = request;
  const credentials: Credentials = { kind: request.kind, secret: request.secret };
  const client =
    request.createClient?.(baseUrl, credentials) ??
    createApiClient({ baseUrl, credentials, ...(signal ? { signal } : {}) });
  try {
    await client.getCredits({}, signal ? { signal } : {});
  } catch (error) {
    // Duck-typed: a client given by the host may throw its own errors of the same shape.
    const { kind, code } = error as { kind?: string; code?: string };
    if (kind === 'auth') {
      throw new SignInError(
        'AUTH_REFUSED',
        'The service refused this key: check it and try again. Nothing was stored.',
        { serviceCode: code ?? null, cause: error },
      );
    }
    if (kind === 'network' || kind === 'timeout') {
      throw new SignInError(
        'SERVICE_UNREACHABLE',
        `The service at ${baseUrl} could not be reached: check the address and the connection. Nothing was stored.`,
        { retryable: true, serviceCode: code ?? null, cause: error },
      );
    }
    // Any other answer (a 5xx, a rate limit) is the API error as it came, with its code.
    throw error;
  }
  return { baseUrl, credentials };
}

/** Keeps a checked key in the store (a KeychainError when it cannot); null keeps nothing. */
export function keepKey(keyStore: KeyStore | null, checked: CheckedKey): SignedIn {
  keyStore?.save(checked.baseUrl, checked.credentials);
  return { baseUrl: checked.baseUrl, kind: checked.credentials.kind, stored: keyStore !== null };
}

/** Checks the key and keeps it: the whole sign-in for a face that has nothing to restart. */
export async function signIn(request: SignInRequest & { keyStore: KeyStore }): Promise<SignedIn> {
  return keepKey(request.keyStore, await checkKey(request));
}

/** Removes the service's key from the store; `removed` is false when none was kept. */
export function signOut(
  keyStore: KeyStore,
  baseUrl: string,
): { baseUrl: string; removed: boolean } {
  return { baseUrl, removed: keyStore.remove(baseUrl) };
}

/** The API error behind a refusal, for a face that words it itself (the CLI's contract). */
export function apiErrorBehind(error: SignInError) {
  return isApiError(error.cause) ? error.cause : null;
}

// One download GET on node:http(s): redirects followed (the key never carried to another
// origin), time limits by phase, an AbortSignal; the answer's body left as a stream.
//
// Why not got: a download is one GET with redirects, and got (with its dependencies) keeps
// about 9 MB resident for good once loaded, in a process (`brand-sync run`) whose idle
// footprint is a product target. The retries, the rate gate and error translation are
// download.ts's and http.ts's anyway.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { http, https } from './node-http.ts';
import { ExchangeError, onConnected, transportFailure } from './transport.ts';

export interface DownloadRequest {
  url: URL;
  headers: Record<string, string>;
  /** Headers that authenticate: sent only while the URL is on this origin. */
  auth: Record<string, string>;
  authOrigin: string;
  signal?: AbortSignal;
  timeouts?: Partial<DownloadTimeouts>;
}

export interface DownloadTimeouts {
  /** From the start until the answer's headers (lookup, connect, redirects included). */
  answerMs: number;
  /** Silence allowed while the body streams. */
  idleMs: number;
}

export interface DownloadAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** Read it to the end or destroy it. */
  body: IncomingMessage;
  /** Where the answer came from after redirects. */
  url: URL;
}

/** A redirect that cannot be followed: not a transport failure, the server's answer. */
export class RedirectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedirectError';
  }
}

export const DEFAULT_DOWNLOAD_TIMEOUTS: DownloadTimeouts = { answerMs: 45_000, idleMs: 60_000 };
export const MAX_REDIRECTS = 10;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Separate from the API calls' agents: a long download never holds a socket they wait for.
const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

export async function openDownload(init: DownloadRequest): Promise<DownloadAnswer> {
  const timeouts = { ...DEFAULT_DOWNLOAD_TIMEOUTS, ...init.timeouts };
  const deadline = Date.now() + timeouts.answerMs;
  let url = init.url;
  // Once the chain has left the service's origin, the key stays off even if it comes back.
  let withAuth = url.origin === init.authOrigin;
  for (let redirects = 0; ; redirects++) {
    const headers = withAuth ? { ...init.headers, ...init.auth } : { ...init.headers };
    const answer = await requestOnce(url, headers, deadline, timeouts.idleMs, init.signal);
    const location = answer.headers.location;
    if (!REDIRECTS.has(answer.status) || typeof location !== 'string') return answer;
    answer.body.resume(); // nobody reads a redirect's body; let the socket go back to the pool
    if (redirects >= MAX_REDIRECTS) {
      throw new RedirectError(`more than ${MAX_REDIRECTS} redirects`);
    }
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new RedirectError('a redirect to an address that is not a URL');
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new RedirectError(`a redirect to a ${next.protocol} address`);
    }
    // The key is the service's: an https answer never sends it on over plain http either.
    if (next.origin !== init.authOrigin) withAuth = false;
    url = next;
  }
}

function requestOnce(
  url: URL,
  headers: Record<string, string>,
  deadline: number,
  idleMs: number,
  signal: AbortSignal | undefined,
): Promise<DownloadAnswer> {
  return new Promise<DownloadAnswer>((resolve, reject) => {
    if (signal?.aborted) return reject(new ExchangeError('ABORT_ERR', false));
    const https_ = url.protocol === 'https:';
    const request = (https_ ? https : http).request(url, {
      method: 'GET',
      headers,
      agent: agents[https_ ? 'https:' : 'http:'],
    });
    let connected = false;
    let answered = false;
    const fail = (error: ExchangeError): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      request.destroy(error);
      if (!answered) reject(error);
    };
    const onAbort = (): void => fail(new ExchangeError('ABORT_ERR', connected));
    const timer = setTimeout(
      () => fail(new ExchangeError('ETIMEDOUT', connected, true)),
      Math.max(0, deadline - Date.now()),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error: unknown) => {
      // Our own failures come back here once the request is destroyed with them.
      if (!(error instanceof ExchangeError)) fail(transportFailure(error, connected));
    });
    onConnected(request, () => (connected = true));
    request.on('response', (response) => {
      answered = true;
      clearTimeout(timer);
      // Errors while the body streams reach whoever reads it, as ExchangeErrors.
      response.setTimeout(idleMs, () =>
        response.destroy(new ExchangeError('ETIMEDOUT', true, true)),
      );
      const endWatch = (): void => signal?.removeEventListener('abort', onBodyAbort);
      const onBodyAbort = (): void => {
        response.destroy(new ExchangeError('ABORT_ERR', true));
      };
      signal?.removeEventListener('abort', onAbort);
      signal?.addEventListener('abort', onBodyAbort, { once: true });
      response.once('close', endWatch);
      resolve({ status: response.statusCode ?? 0, headers: response.headers, body: response, url });
    });
    request.end();
  });
}

// The headless host's bridge: `POST /api/<name>` for every query and command, `GET
// /api/events` as server-sent events (the browser's EventSource resumes with Last-Event-ID
// by itself), files under `/files/`. The session cookie rides along: same origin only.
import type { ChannelName, FileRef, Input, NumberedEvent } from '../../../../contract/index.ts';
import { filePath, type Answer, type BridgeTransport } from './transport.ts';

export class HttpTransport implements BridgeTransport {
  readonly host = 'browser' as const;
  readonly #base: string;

  constructor(base = '') {
    this.#base = base;
  }

  async call<N extends ChannelName>(name: N, input: Input<N>): Answer<N> {
    let response: Response;
    try {
      response = await fetch(`${this.#base}/api/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input ?? {}),
        credentials: 'same-origin',
      });
    } catch {
      return {
        ok: false,
        error: {
          code: 'HOST_UNREACHABLE',
          message: 'Brand Sync is not running: start it again, then reload this page.',
          retryable: true,
        },
      };
    }
    try {
      return (await response.json()) as Awaited<Answer<N>>;
    } catch {
      return {
        ok: false,
        error: {
          code: response.status === 401 ? 'SESSION_EXPIRED' : 'BAD_ANSWER',
          message:
            response.status === 401
              ? 'This page is no longer signed in to Brand Sync: open the link it printed again.'
              : `Brand Sync answered ${response.status} without a readable body.`,
          retryable: false,
        },
      };
    }
  }

  subscribe(
    onEvent: (event: NumberedEvent) => void,
    onState?: (connected: boolean) => void,
  ): () => void {
    const source = new EventSource(`${this.#base}/api/events`, { withCredentials: false });
    source.onopen = () => onState?.(true);
    source.onerror = () => onState?.(false);
    source.onmessage = (message) => {
      try {
        onEvent(JSON.parse(message.data as string) as NumberedEvent);
      } catch {
        // A malformed event is dropped: the next query shows the truth anyway.
      }
    };
    return () => source.close();
  }

  fileUrl(ref: FileRef): string {
    return `${this.#base}${filePath(ref)}`;
  }
}

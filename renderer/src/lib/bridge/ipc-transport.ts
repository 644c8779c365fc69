// The desktop app's bridge: the preload's named functions (one per channel) and its event
// subscription. Files load from the app's own scheme, relative to the page, as over HTTP.
import type { ChannelName, FileRef, Input, NumberedEvent } from '../../../../contract/index.ts';
// The name list alone: the contract's index would bring zod (and its eval probe) into the page.
import { PRELOAD_GLOBAL } from '../../../../contract/channel-names.ts';
import { filePath, type Answer, type BridgeTransport } from './transport.ts';

type PreloadApi = Record<ChannelName, (input: unknown) => Promise<unknown>> & {
  subscribe(listener: (event: unknown) => void): () => void;
};

/** The preload's functions, when this window runs in the desktop app. */
export function preloadApi(): PreloadApi | null {
  const api = (globalThis as Record<string, unknown>)[PRELOAD_GLOBAL];
  return typeof api === 'object' && api !== null ? (api as PreloadApi) : null;
}

export class IpcTransport implements BridgeTransport {
  readonly host = 'desktop' as const;
  readonly #api: PreloadApi;

  constructor(api: PreloadApi) {
    this.#api = api;
  }

  async call<N extends ChannelName>(name: N, input: Input<N>): Answer<N> {
    try {
      return (await this.#api[name](input ?? {})) as Awaited<Answer<N>>;
    } catch {
      return {
        ok: false,
        error: {
          code: 'HOST_UNREACHABLE',
          message: 'The Brand Sync engine did not answer: restart the app.',
          retryable: true,
        },
      };
    }
  }

  subscribe(
    onEvent: (event: NumberedEvent) => void,
    onState?: (connected: boolean) => void,
  ): () => void {
    const off = this.#api.subscribe((event) => onEvent(event as NumberedEvent));
    // The engine lives as long as the window: the stream is up from the start.
    onState?.(true);
    return off;
  }

  fileUrl(ref: FileRef): string {
    return filePath(ref);
  }
}

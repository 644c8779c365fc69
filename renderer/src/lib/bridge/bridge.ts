// The one bridge client of the window, typed by contract/: state classes call it, no
// component talks to a transport.
import type { ChannelName, FileRef, Input, NumberedEvent } from '../../../../contract/index.ts';
import { HttpTransport } from './http-transport.ts';
import { IpcTransport, preloadApi } from './ipc-transport.ts';
import type { Answer, BridgeTransport } from './transport.ts';

export class Bridge {
  readonly #transport: BridgeTransport;

  constructor(transport: BridgeTransport) {
    this.#transport = transport;
  }

  get host(): 'browser' | 'desktop' {
    return this.#transport.host;
  }

  call<N extends ChannelName>(name: N, input: Input<N>): Answer<N> {
    return this.#transport.call(name, input);
  }

  subscribe(
    onEvent: (event: NumberedEvent) => void,
    onState?: (connected: boolean) => void,
  ): () => void {
    return this.#transport.subscribe(onEvent, onState);
  }

  fileUrl(ref: FileRef): string {
    return this.#transport.fileUrl(ref);
  }
}

/** The desktop app's preload when the window runs there; else the headless host's HTTP. */
export function createBridge(): Bridge {
  const api = preloadApi();
  return new Bridge(api === null ? new HttpTransport() : new IpcTransport(api));
}

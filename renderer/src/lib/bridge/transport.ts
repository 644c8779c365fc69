// How the renderer reaches the engine: one interface, two implementations (HTTP and SSE in
// the headless host, the preload's named functions in Electron). Nothing else in the
// renderer knows which one it runs on.
import type {
  ChannelName,
  FileRef,
  Input,
  NumberedEvent,
  Output,
  Result,
} from '../../../../contract/index.ts';

/** What a call of channel N comes back with: its output, or a plain error. */
export type Answer<N extends ChannelName> = Promise<Result<Output<N>>>;

export interface BridgeTransport {
  /** Which host serves the window: some settings exist only in the desktop app. */
  readonly host: 'browser' | 'desktop';
  call<N extends ChannelName>(name: N, input: Input<N>): Answer<N>;
  /** Pushed events, resumed after a drop from the last number seen. Returns the unsubscribe. */
  subscribe(
    onEvent: (event: NumberedEvent) => void,
    onState?: (connected: boolean) => void,
  ): () => void;
  /** A URL the window can put in <img src> or <a href> for a file of the engine. */
  fileUrl(ref: FileRef): string;
}

/**
 * Where both hosts serve a file of the engine, below their origin: `/files/media/<id>`, or
 * `/files/<area>/<brand>/<path>` with each segment encoded.
 */
export function filePath(ref: FileRef): string {
  if (ref.area === 'media') return `/files/media/${encodeURIComponent(ref.path)}`;
  const path = ref.path.split('/').map(encodeURIComponent).join('/');
  return `/files/${ref.area}/${encodeURIComponent(ref.brandId)}/${path}`;
}

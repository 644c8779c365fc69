// What the preload exposes to the window: one named function per channel of the contract
// (never `ipcRenderer` itself, never a generic invoke), `subscribe` for the pushed events,
// `startDrag` for a file dragged out of the window (a native drag, `drag:start`), and nothing
// of the IPC event object ever crosses. Built from the name list, tested in Node.
import { CHANNEL_NAMES, IPC_EVENT_CHANNEL, IPC_INVOKE_PREFIX } from '../contract/channel-names.ts';

export type ChannelCall = (input?: unknown) => Promise<unknown>;
export type PreloadApi = Readonly<
  Record<(typeof CHANNEL_NAMES)[number], ChannelCall> & {
    subscribe(listener: (event: unknown) => void): () => void;
    /** A native drag of the file a reference names: `{ok}` or `{ok: false, error}`. */
    startDrag(target: unknown): Promise<unknown>;
  }
>;

/** The IPC channel of `startDrag` (main/hosts/electron/native-drag.ts answers it). */
export const DRAG_CHANNEL = 'drag:start';

/** What this needs of Electron's `ipcRenderer` (a fake in tests). */
export interface IpcRendererLike {
  invoke(channel: string, input: unknown): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
}

export function buildPreloadApi(ipc: IpcRendererLike): PreloadApi {
  const api: Record<string, unknown> = {};
  for (const name of CHANNEL_NAMES) {
    api[name] = (input?: unknown) => ipc.invoke(`${IPC_INVOKE_PREFIX}${name}`, input ?? {});
  }
  api.subscribe = (listener: (event: unknown) => void) => {
    // The payload only: the IPC event (with its sender) stays on this side.
    const forward = (_event: unknown, payload: unknown) => listener(payload);
    ipc.on(IPC_EVENT_CHANNEL, forward);
    return () => void ipc.removeListener(IPC_EVENT_CHANNEL, forward);
  };
  api.startDrag = (target: unknown) => ipc.invoke(DRAG_CHANNEL, target);
  return Object.freeze(api) as PreloadApi;
}

// The bridge over IPC: one `ipcMain.handle` per channel of the contract (named
// `bridge:<name>`), each refusing a sender that is not a frame of the app's own origin and
// passing the raw input to the same dispatch as the HTTP bridge (the contract's schema parses
// it there: a malformed one gets VALIDATION_ERROR). Results are plain `{ok, data | error}`.
import {
  channelNames,
  IPC_INVOKE_PREFIX as INVOKE_PREFIX,
  type ChannelName,
  type Result,
} from '../../contract/index.ts';
import { APP_ORIGIN } from './app-protocol.ts';

/** What this module needs of Electron's `ipcMain` (a fake in tests). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, input: unknown) => unknown): void;
  removeHandler(channel: string): void;
}
export interface IpcEventLike {
  senderFrame: { url: string } | null;
}

export type Dispatch = (name: ChannelName, input: unknown) => Promise<Result<unknown>>;

/** Only the app's own pages may call: not a navigated-away frame, not a foreign origin. */
export function senderAllowed(event: IpcEventLike): boolean {
  const url = event.senderFrame?.url;
  if (typeof url !== 'string') return false;
  try {
    return new URL(url).origin === APP_ORIGIN || url.startsWith(`${APP_ORIGIN}/`);
  } catch {
    return false;
  }
}

export function registerBridge(ipcMain: IpcMainLike, dispatch: Dispatch): () => void {
  for (const name of channelNames) {
    ipcMain.handle(`${INVOKE_PREFIX}${name}`, async (event, input) => {
      if (!senderAllowed(event)) {
        return {
          ok: false,
          error: {
            code: 'FORBIDDEN_SENDER',
            message: 'Only the Brand Sync window may call the engine.',
            retryable: false,
          },
        } satisfies Result<never>;
      }
      return dispatch(name, input ?? {});
    });
  }
  return () => {
    for (const name of channelNames) ipcMain.removeHandler(`${INVOKE_PREFIX}${name}`);
  };
}

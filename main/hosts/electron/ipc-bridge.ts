// The bridge over IPC: one `ipcMain.handle` per channel of the contract (named
// `bridge:<name>`), each refusing any sender but the app window's main frame showing the app's
// page, and passing the raw input to the same dispatch as the HTTP bridge (the contract's
// schema parses it there: a malformed one gets VALIDATION_ERROR). Results are `{ok, data | error}`.
import {
  channelNames,
  IPC_INVOKE_PREFIX as INVOKE_PREFIX,
  type ChannelName,
  type Result,
} from '../../../contract/index.ts';
import { isAppPageUrl } from './app-protocol.ts';

/** What this module needs of Electron's `ipcMain` (a fake in tests). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, input: unknown) => unknown): void;
  removeHandler(channel: string): void;
}
/** What this needs of a frame (Electron's `WebFrameMain`). */
export interface FrameLike {
  readonly url: string;
}
export interface IpcEventLike {
  senderFrame: FrameLike | null;
}

/** The app window's main frame (`window.webContents.mainFrame`), null while there is none. */
export type AppMainFrame = () => FrameLike | null;

export type Dispatch = (name: ChannelName, input: unknown) => Promise<Result<unknown>>;

/**
 * Only the app window's main frame, showing the app's page, may call. Not a subframe of that
 * page (an iframe shares its URL's origin but not its trust), not another window or a devtools
 * page, not the window navigated to a file of the engine. The frame object is Electron's own
 * (`senderFrame` is `mainFrame` for the window's top frame), so identity says which frame it is.
 */
export function senderAllowed(event: IpcEventLike, appMainFrame: FrameLike | null): boolean {
  const frame = event.senderFrame;
  if (frame === null || appMainFrame === null || frame !== appMainFrame) return false;
  return isAppPageUrl(frame.url);
}

export function registerBridge(
  ipcMain: IpcMainLike,
  dispatch: Dispatch,
  appMainFrame: AppMainFrame,
): () => void {
  for (const name of channelNames) {
    ipcMain.handle(`${INVOKE_PREFIX}${name}`, async (event, input) => {
      if (!senderAllowed(event, appMainFrame())) {
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

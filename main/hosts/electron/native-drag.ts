// Dragging a file out of the desktop window (a Library item, the logo, a Brand Skill file)
// onto the desktop or into a design tool: the window asks over `drag:start` with the file's
// reference, this checks the sender as the bridge does, resolves the file through the
// engine's own file access (a Library item is fetched into the media cache first when
// online), gives it its real name in a per-run folder of the data dir (the media cache names
// files by item ID), and hands it to Electron's native drag. The window never names the path.
import { randomUUID } from 'node:crypto';
import { copyFile, link, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { fileRef } from '../../../contract/index.ts';
import type { ServedFile } from '../../engine/app/file-access.ts';
import { DRAG_CHANNEL } from '../../../preload/preload-api.ts';
import { senderAllowed, type AppMainFrame, type FrameLike } from './ipc-bridge.ts';

/** Where the named copies live: one folder per run, removed at the next start and at quit. */
export const DRAG_DIR = 'drag-out';

export { DRAG_CHANNEL };

/** What is dragged: a file reference as the window holds it (a thumbnail's, a skill file's, the logo's). */
export const dragTarget = fileRef.strict();
export type DragTarget = z.infer<typeof dragTarget>;

export type DragResult = { ok: true } | { ok: false; error: { code: string; message: string } };

/** What this needs of Electron's `ipcMain` (a fake in tests). */
export interface DragIpcMainLike {
  handle(channel: string, listener: (event: DragEventLike, input: unknown) => unknown): void;
  removeHandler(channel: string): void;
}
export interface DragEventLike {
  senderFrame: FrameLike | null;
  sender: { startDrag(item: { file: string; icon: unknown }): void };
}

export interface NativeDragOptions {
  dataDir: string;
  appMainFrame: AppMainFrame;
  /** The engine's file access (`fileFor(runtime, rest)`): null when the file cannot be had. */
  fileFor: (rest: readonly string[]) => Promise<ServedFile | null>;
  /** A Library item's real file name and type, by item ID (null: not in the mirror). */
  mediaItem: (itemId: string) => { name: string; type: string } | null;
  /** Whether the engine runs (signed in): only then can a file not cached be fetched. */
  online: () => boolean;
  /** The image shown under the pointer (required on macOS). */
  icon: () => unknown;
}

const refused = (code: string, message: string): DragResult => ({
  ok: false,
  error: { code, message },
});

/** A file name any OS takes: no separators, reserved or control characters, never empty or dots. */
export function dragFileName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const clean = name.replace(/[\\/:*?"<>|\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '-');
  const trimmed = clean.trim().replace(/[. ]+$/, '');
  return trimmed === '' || /^\.+$/.test(trimmed) ? 'file' : trimmed.slice(0, 200);
}

/** Why a file cannot be dragged, in words the window shows. */
function unavailable(area: DragTarget['area'], type: string | undefined, online: boolean): string {
  if (area !== 'media') return 'This file is not in the brand’s folder any more.';
  if (type === undefined) return 'This item is not in the Library any more.';
  // The media cache keeps images only (file-access.ts serves nothing else).
  if (type !== 'image')
    return `Only Library images are kept on this computer: this ${type} cannot be dragged out.`;
  return online
    ? 'Brand Sync could not fetch this file from the service just now: try again in a moment.'
    : 'This file was never fetched to this computer, and Brand Sync is offline (signed out), so it cannot fetch it now.';
}

export async function registerNativeDrag(
  ipcMain: DragIpcMainLike,
  options: NativeDragOptions,
): Promise<() => Promise<void>> {
  const base = path.join(options.dataDir, DRAG_DIR);
  // What an earlier run left (it may have quit mid-drag).
  await rm(base, { recursive: true, force: true });
  const runDir = path.join(base, randomUUID());
  let count = 0;

  ipcMain.handle(DRAG_CHANNEL, async (event, input): Promise<DragResult> => {
    // Nothing is logged: the input came from a page that may not be ours.
    if (!senderAllowed(event, options.appMainFrame())) {
      return refused('FORBIDDEN_SENDER', 'Only the Brand Sync window may drag files out.');
    }
    const parsed = dragTarget.safeParse(input);
    if (!parsed.success) return refused('VALIDATION_ERROR', 'That is not a file to drag.');
    const target = parsed.data;
    const rest =
      target.area === 'media'
        ? ['media', target.path]
        : [target.area, target.brandId, ...target.path.split('/')];
    const item = target.area === 'media' ? options.mediaItem(target.path) : null;
    // Only a Library item has a name to drag by: anything else is not asked of the service.
    if (target.area === 'media' && item === null) {
      return refused('FILE_UNAVAILABLE', unavailable('media', undefined, options.online()));
    }
    const file = await options.fileFor(rest);
    const name =
      target.area === 'media'
        ? (item?.name ?? null)
        : path.posix.basename(target.path.replace(/\\/g, '/'));
    if (file === null || name === null) {
      return refused('FILE_UNAVAILABLE', unavailable(target.area, item?.type, options.online()));
    }
    // A folder per drag: two items of the same name never meet.
    const dir = path.join(runDir, String((count += 1)));
    const dest = path.join(dir, dragFileName(name));
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await link(file.path, dest).catch(() => copyFile(file.path, dest));
    } catch {
      return refused('FILE_UNAVAILABLE', 'Brand Sync could not prepare this file for the drag.');
    }
    event.sender.startDrag({ file: dest, icon: options.icon() });
    return { ok: true };
  });

  return async () => {
    ipcMain.removeHandler(DRAG_CHANNEL);
    await rm(base, { recursive: true, force: true });
  };
}

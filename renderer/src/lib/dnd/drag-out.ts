// Dragging a file out of the window (a Library item, the logo, a Brand Skill file) onto the
// desktop or into a design tool: it arrives as the file, with its real name and type.
// Chromium-based browsers take an HTML drag with `DownloadURL` (`type:name:address`) and fetch
// the file from the engine's /files/ route; the address and the name ride along as a link and
// text for tools that take those instead. In the desktop app the HTML drag is cancelled and
// the preload's `startDrag` asks the shell for a native drag of the file itself (fetched into
// the media cache first when needed); a file it cannot have is said in words.
import type { Attachment } from 'svelte/attachments';
import type { FileRef } from '../../../../contract/index.ts';
import { preloadApi } from '../bridge/ipc-transport.ts';

export interface DraggedFile {
  /** Where the window loads the file (relative to the page). */
  url: string;
  name: string;
  mimeType: string | null;
  /** The engine's reference to the file: what the desktop app drags natively. */
  ref?: FileRef;
}

type DragAnswer = { ok: true } | { ok: false; error: { code: string; message: string } };
type StartDrag = (target: FileRef) => Promise<DragAnswer>;

/** The preload's native drag, when this window runs in the desktop app. */
function nativeStartDrag(): StartDrag | null {
  const api = preloadApi() as { startDrag?: unknown } | null;
  return typeof api?.startDrag === 'function' ? (api.startDrag as StartDrag) : null;
}

/** `type:name:address`, as Chromium reads it: a colon in the name would end it early. */
export function downloadUrl(file: DraggedFile, base = location.href): string {
  const name = file.name.replace(/[:\\/]/g, '-').trim() || 'file';
  const type = file.mimeType?.trim() || 'application/octet-stream';
  return `${type}:${name}:${new URL(file.url, base).href}`;
}

export function writeDragData(data: DataTransfer, file: DraggedFile): void {
  const absolute = new URL(file.url, location.href).href;
  data.effectAllowed = 'copy';
  data.setData('DownloadURL', downloadUrl(file));
  data.setData('text/uri-list', absolute);
  data.setData('text/plain', file.name);
}

/**
 * Makes the element draggable as `file()` (null: not draggable now). `refused` hears why the
 * desktop app could not drag the file (offline, and never fetched).
 */
export function dragOut(
  file: () => DraggedFile | null,
  refused?: (message: string) => void,
): Attachment<HTMLElement> {
  return (node) => {
    const start = (event: DragEvent) => {
      const what = file();
      if (what === null) return;
      const startDrag = what.ref ? nativeStartDrag() : null;
      if (startDrag !== null && what.ref) {
        // The shell drags the file itself; an HTML drag beside it would fight it.
        event.preventDefault();
        startDrag(what.ref).then(
          (answer) => {
            if (!answer.ok && answer.error.code === 'FILE_UNAVAILABLE')
              refused?.(answer.error.message);
          },
          () => refused?.('The Brand Sync engine did not answer: restart the app.'),
        );
        return;
      }
      if (event.dataTransfer === null) return;
      writeDragData(event.dataTransfer, what);
    };
    node.draggable = file() !== null;
    node.addEventListener('dragstart', start);
    return () => node.removeEventListener('dragstart', start);
  };
}

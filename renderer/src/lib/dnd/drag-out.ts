// Dragging a file out of the window (a Library item, the logo, a Brand Skill file) onto the
// desktop or into a design tool: it arrives as the file, with its real name and type.
// Chromium-based browsers take an HTML drag with `DownloadURL` (`type:name:address`) and fetch
// the file from the engine's /files/ route; the address and the name ride along as a link and
// text for tools that take those instead.
import type { Attachment } from 'svelte/attachments';

export interface DraggedFile {
  /** Where the window loads the file (relative to the page). */
  url: string;
  name: string;
  mimeType: string | null;
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

/** Makes the element draggable as `file()` (null: not draggable now). */
export function dragOut(file: () => DraggedFile | null): Attachment<HTMLElement> {
  return (node) => {
    const start = (event: DragEvent) => {
      const what = file();
      if (what === null || event.dataTransfer === null) return;
      writeDragData(event.dataTransfer, what);
    };
    node.draggable = file() !== null;
    node.addEventListener('dragstart', start);
    return () => node.removeEventListener('dragstart', start);
  };
}

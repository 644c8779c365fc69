// A file of the engine as bytes in the page (to put an image on the clipboard): from the same
// URL the window shows it at, in both hosts (`/files/…` over HTTP, `app://` in the desktop app).
import type { FileRef } from '../../../../contract/index.ts';
import type { Bridge } from './bridge.ts';

export async function fileBlob(bridge: Bridge, ref: FileRef): Promise<Blob> {
  const response = await fetch(bridge.fileUrl(ref), { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`The file is not available (${response.status}).`);
  return response.blob();
}

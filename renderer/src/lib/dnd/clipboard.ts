// Copy does the useful thing: a colour copies its hex as text; an image copies the image
// itself where the platform allows (the async Clipboard API takes image/png only, so other
// image types are drawn to a PNG first), else its file's address.
import type { FileRef } from '../../../../contract/index.ts';
import type { Bridge } from '../bridge/bridge.ts';
import { fileBlob } from '../bridge/file-blob.ts';

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** 'image': the picture is on the clipboard; 'link': only its address; 'failed': nothing. */
export async function copyImage(
  bridge: Bridge,
  ref: FileRef,
): Promise<'image' | 'link' | 'failed'> {
  if (typeof ClipboardItem !== 'undefined' && typeof navigator.clipboard?.write === 'function') {
    try {
      // The promise goes in as it is: Safari wants the item made within the click.
      await navigator.clipboard.write([new ClipboardItem({ 'image/png': pngOf(bridge, ref) })]);
      return 'image';
    } catch {
      // Not allowed here (a desktop shell's policy, an old browser): the address instead.
    }
  }
  return (await copyText(new URL(bridge.fileUrl(ref), location.href).href)) ? 'link' : 'failed';
}

async function pngOf(bridge: Bridge, ref: FileRef): Promise<Blob> {
  const blob = await fileBlob(bridge, ref);
  if (blob.type === 'image/png') return blob;
  const bitmap = await createImageBitmap(blob);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext('2d');
  if (context === null) throw new Error('no 2D canvas here');
  context.drawImage(bitmap, 0, 0);
  bitmap.close();
  return canvas.convertToBlob({ type: 'image/png' });
}

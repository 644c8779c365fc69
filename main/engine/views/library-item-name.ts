// What a Library item's file is called when it leaves the window (a drag, a download): the
// name of the local file it was uploaded from, else one made of its description (or its
// type and ID) and the extension of its type. The service keeps no file names.
import path from 'node:path';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/quicktime': 'mov',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/ogg': 'ogg',
  'audio/webm': 'weba',
};

const FALLBACK_EXTENSION: Record<string, string> = { image: 'png', video: 'mp4', audio: 'mp3' };

export function libraryItemName(item: {
  id: string;
  type: string;
  mimeType: string | null;
  description: string | null;
  fileName: string | null;
}): string {
  const local = localName(item.fileName);
  if (local !== null) return local;
  const mime = item.mimeType?.trim().toLowerCase() ?? '';
  const ext =
    EXTENSIONS[mime] ??
    // A type not listed names its own extension when it can (image/heic: .heic).
    /^[a-z]+\/([a-z0-9]{1,8})$/.exec(mime)?.[1] ??
    FALLBACK_EXTENSION[item.type] ??
    'bin';
  const words = (item.description ?? '')
    .normalize('NFC')
    .split(/[^\p{L}\p{N}'-]+/u)
    .map((w) => w.replace(/^[-']+|[-']+$/g, ''))
    .filter((w) => w !== '')
    .join(' ')
    .slice(0, 60)
    .trim();
  const stem = words !== '' ? words : `${safe(item.type)} ${item.id.slice(0, 8)}`;
  return `${stem}.${ext}`;
}

const PLAIN_LABEL: Record<string, string> = {
  image: 'Untitled image',
  video: 'Untitled video',
  audio: 'Untitled audio',
};

/**
 * What the window names an item by (tiles, list rows, details, the palette): the name of the
 * local file it was uploaded from, else its description, else a plain label of its kind. Never
 * its source ("uploaded", "generated") alone, which names no item.
 */
export function libraryItemCaption(item: {
  type: string;
  description: string | null;
  fileName: string | null;
}): string {
  const local = localName(item.fileName);
  if (local !== null) return local;
  const description = item.description?.replace(/\s+/g, ' ').trim() ?? '';
  if (description !== '') return description;
  return PLAIN_LABEL[item.type] ?? 'Untitled item';
}

/** The base name of the local file an item came from; null when there is none. */
function localName(fileName: string | null): string | null {
  if (fileName === null) return null;
  const base = path.posix.basename(fileName);
  return base === '' ? null : base;
}

function safe(text: string): string {
  const clean = text.replace(/[^\p{L}\p{N}]+/gu, '');
  return clean === '' ? 'item' : clean;
}

// Files dropped on a brand's page or picked with "Add files…" are copied into its folder (the
// folder stays the source of truth; the folder sync uploads them). The window says at once what
// it can tell from a file's type and size; the engine judges the bytes and has the last word.
// Five per call, 10 MB each: the bridge's limits.
import type { AppState } from '../state/app-state.svelte.ts';
import { plural } from '../format/format.ts';

const MAX_BYTES = 10 * 1024 * 1024;
/** What the Library takes, as the file picker's `accept` and the window's quick check. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/avif'];

function base64(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Why the window refuses `file` before sending it, or null when the engine should judge it. */
export function refusal(file: File): string | null {
  if (file.size > MAX_BYTES) return 'The service takes images up to 10 MB.';
  if (!IMAGE_TYPES.includes(file.type)) {
    return `It is ${file.type ? `${file.type}, ` : ''}not an image the Library takes: PNG, JPEG, WebP or AVIF.`;
  }
  return null;
}

/** Sends `files` to the brand's folder; says what was refused and what was added. */
export async function addFilesToBrand(
  app: AppState,
  brandId: string,
  brandName: string,
  files: File[],
): Promise<void> {
  const ok: File[] = [];
  for (const f of files) {
    const why = refusal(f);
    if (why === null) ok.push(f);
    else app.toasts.show('error', `${f.name} was not added`, why);
  }
  let added = 0;
  for (let i = 0; i < ok.length; i += 5) {
    const batch = ok.slice(i, i + 5);
    const result = await app.bridge.call('addFiles', {
      brandId,
      files: await Promise.all(
        batch.map(async (f) => ({ name: f.name, dataBase64: base64(await f.arrayBuffer()) })),
      ),
    });
    if (!result.ok) {
      app.toasts.show('error', 'Could not add the files', result.error.message);
      break;
    }
    added += result.data.added.length;
  }
  if (added > 0) {
    app.toasts.show(
      'success',
      `${plural(added, 'file')} added to ${brandName}`,
      'They upload from the brand folder.',
    );
    app.router.setTab('files');
  }
}

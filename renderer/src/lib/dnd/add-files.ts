// Files dropped on a brand's page or picked with "Add files…" are copied into its folder (the
// folder stays the source of truth; the folder sync uploads them; actions/files.ts sends them).
// The window says at once what it can tell from a file's type and size; the engine judges the
// bytes and has the last word. 10 MB each: the bridge's limit.

const MAX_BYTES = 10 * 1024 * 1024;
/** What the Library takes, as the file picker's `accept` and the window's quick check. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/avif'];

/** Why the window refuses `file` before sending it, or null when the engine should judge it. */
export function refusal(file: File): string | null {
  if (file.size > MAX_BYTES) return 'The service takes images up to 10 MB.';
  if (!IMAGE_TYPES.includes(file.type)) {
    return `It is ${file.type ? `${file.type}, ` : ''}not an image the Library takes: PNG, JPEG, WebP or AVIF.`;
  }
  return null;
}

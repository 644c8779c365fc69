// The actions on files: a folder opened, files added to a brand's folder, a file's address, a
// drag out of the window, a copy to the clipboard, a Brand Skill file read, an upload retried.
import type { Attachment } from 'svelte/attachments';
import type { FileRef, FilesDoc, Output, Result } from '../../../../contract/index.ts';
import { refusal } from '../dnd/add-files.ts';
import { copyImage } from '../dnd/clipboard.ts';
import { plural } from '../format/format.ts';
import { dragOut } from '../dnd/drag-out.ts';
import type { AppState } from '../state/app-state.svelte.ts';
import type { LiveQuery } from '../state/live-query.svelte.ts';
import { attempt } from './attempt.ts';

/** Opens a brand's folder (or the sync root) where the host can; else says where it is. */
export async function openFolder(app: AppState, brandId?: string): Promise<void> {
  const call = app.bridge.call('openFolder', brandId === undefined ? {} : { brandId });
  const result = await attempt(app, call, 'Could not open the folder');
  if (result.ok && !result.data.opened) app.folderNotOpened = result.data.path;
}

/** Sends `files` to the brand's folder (five a call: the bridge's limit); says what was refused and what was added. */
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
    const encoded = await Promise.all(
      batch.map(async (f) => ({ name: f.name, dataBase64: base64(await f.arrayBuffer()) })),
    );
    const call = app.bridge.call('addFiles', { brandId, files: encoded });
    const result = await attempt(app, call, 'Could not add the files');
    if (!result.ok) break;
    added += result.data.added.length;
  }
  if (added > 0) {
    const title = `${plural(added, 'file')} added to ${brandName}`;
    app.toasts.show('success', title, 'They upload from the brand folder.');
    app.router.setTab('files');
  }
}

function base64(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Where the window loads a file of the engine (an <img src>, a font, a link). */
export function fileUrl(app: AppState, ref: FileRef): string {
  return app.bridge.fileUrl(ref);
}

export interface DragSource {
  ref: FileRef;
  name: string;
  mimeType: string | null;
}

/** Makes an element draggable out of the window as the file; a refusal is said in a toast. */
export function dragFile(app: AppState, source: () => DragSource): Attachment<HTMLElement> {
  return dragOut(
    () => {
      const { ref, name, mimeType } = source();
      return { url: app.bridge.fileUrl(ref), name, mimeType, ref };
    },
    (message) => app.toasts.show('error', 'Could not drag the file', message),
  );
}

/** Copies the picture itself where the platform allows, else its address; says which. */
export async function copyFile(
  app: AppState,
  ref: FileRef,
  name: string,
  copied: string,
): Promise<void> {
  const outcome = await copyImage(app.bridge, ref);
  if (outcome === 'image') app.toasts.show('success', copied, name);
  else if (outcome === 'link') app.toasts.show('info', 'Address copied', name);
  else app.toasts.show('error', 'Could not copy', 'This window may not use the clipboard.');
}

/** A file of the brand's Brand Skill on disk (its refusal is shown in the reader). */
export function readSkillFile(
  app: AppState,
  brandId: string,
  path: string,
): Promise<Result<Output<'skillFile'>>> {
  return app.bridge.call('skillFile', { brandId, path });
}

/** Sends a failed file again; the list is asked again either way. */
export async function retryFile(
  app: AppState,
  files: LiveQuery<FilesDoc>,
  brandId: string,
  name: string,
): Promise<void> {
  const call = app.bridge.call('retryFile', { brandId, path: name });
  const result = await attempt(app, call, `Could not retry ${name}`);
  if (result.ok) app.toasts.show('info', `${name} will be sent again`);
  void files.refresh();
}

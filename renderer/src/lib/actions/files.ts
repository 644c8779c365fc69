// The actions on files of the engine: their address, a drag out of the window, a copy to
// the clipboard, a Brand Skill file read, a failed upload retried.
import type { Attachment } from 'svelte/attachments';
import type { FileRef, FilesDoc, Output, Result } from '../../../../contract/index.ts';
import { copyImage } from '../dnd/clipboard.ts';
import { dragOut } from '../dnd/drag-out.ts';
import type { AppState } from '../state/app-state.svelte.ts';
import type { LiveQuery } from '../state/live-query.svelte.ts';
import { attempt } from './attempt.ts';

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

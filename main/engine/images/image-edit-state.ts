// An image edit as the engine follows it: what was asked, what it cost, and where it is.
// Kept in a setting (the last few), so a restart resumes following the ones still running
// and the window shows a finished one when its dialog is opened again.
import { z } from 'zod';
import { defineSetting } from '../store/index.ts';

/** Only completed and failed end an image; any other status (known or not) is still running. */
export function isImageFinished(status: string): boolean {
  return status === 'completed' || status === 'failed';
}

export const ImageEditStateSchema = z.object({
  /** The new image (the edit's result), as the service named it. */
  imageId: z.string(),
  brandId: z.string(),
  /** The image that was edited. */
  sourceImageId: z.string(),
  prompt: z.string(),
  size: z.string(),
  cost: z.number(),
  workspaceId: z.string().nullable(),
  /** The service's status, as sent (pending, generating, completed, failed, or another). */
  status: z.string(),
  failureReason: z.string().nullable(),
  /** Advice for a failure that has some (content_safety: revise the prompt). */
  advice: z.string().nullable(),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
});
export type ImageEditState = z.infer<typeof ImageEditStateSchema>;

/** The last edits, newest first; the running ones are never dropped. */
export const imageEditsSetting = defineSetting(
  'images.edits',
  z.array(ImageEditStateSchema),
  [],
  'Image edits the engine started, newest first: the running ones are followed until they end, also after a restart.',
);

/** Finished edits kept for the window (a dialog opened again shows its result). */
export const KEEP_FINISHED = 20;

// Images: get (with wait) and edit with a prompt.
import { IMAGE_EDIT_LIMITS } from './assumed.ts';
import { IMAGE_EDIT_PATH } from './assumed.ts';
import { byId } from './endpoint.ts';
import { longPoll, type LongPollOptions } from './long-poll.ts';
import { seg, type Http } from './http.ts';
import { invalidInput, requireLength, requireUuid } from './input.ts';
import { Image, ImageEditResult } from './schemas.ts';
import type { CallOptions } from './brands.ts';

export interface GetImageOptions extends CallOptions, LongPollOptions {}

export const getImage = byId('GET /images/{id}', 'image ID', Image, (id) => `/images/${id}`, {
  more: (options: GetImageOptions, endpoint) => longPoll(options, endpoint),
});

export const IMAGE_SIZES = ['2K', '4K'] as const;
export const IMAGE_MODELS = ['fast', 'standard', 'pro'] as const;

export interface EditImageInput {
  prompt: string;
  /** The brand ID. */
  brandSessionId: string;
  imageSize?: (typeof IMAGE_SIZES)[number];
  model?: (typeof IMAGE_MODELS)[number];
  referenceImageIds?: string[];
}

/**
 * Starts an edit of a completed or uploaded image. Not re-sent after an uncertain outcome:
 * a second send would start (and bill) a second edit.
 */
export async function editImage(
  http: Http,
  id: string,
  input: EditImageInput,
  options: CallOptions = {},
): Promise<ImageEditResult> {
  const endpoint = 'POST /images/{id}/edit';
  requireUuid(id, 'image ID', endpoint);
  const { minPrompt, maxPrompt, maxReferences } = IMAGE_EDIT_LIMITS;
  requireLength(input.prompt, 'prompt', minPrompt, maxPrompt, endpoint);
  requireUuid(input.brandSessionId, 'brand ID', endpoint);
  if (input.imageSize !== undefined && !IMAGE_SIZES.includes(input.imageSize)) {
    throw invalidInput(
      endpoint,
      `image size must be 2K or 4K, got ${JSON.stringify(input.imageSize)}.`,
    );
  }
  if (input.model !== undefined && !IMAGE_MODELS.includes(input.model)) {
    throw invalidInput(
      endpoint,
      `model must be fast, standard or pro, got ${JSON.stringify(input.model)}.`,
    );
  }
  const refs = input.referenceImageIds ?? [];
  if (refs.length > maxReferences)
    throw invalidInput(endpoint, `at most ${maxReferences} reference images, got ${refs.length}.`);
  refs.forEach((ref) => requireUuid(ref, 'reference image ID', endpoint));
  return http.call({
    method: 'POST',
    endpoint,
    path: IMAGE_EDIT_PATH(seg(id)),
    json: {
      prompt: input.prompt,
      brandSessionId: input.brandSessionId,
      ...(input.imageSize ? { imageSize: input.imageSize } : {}),
      ...(input.model ? { model: input.model } : {}),
      ...(refs.length > 0 ? { referenceImageIds: refs } : {}),
    },
    schema: ImageEditResult,
    resend: 'once',
    assumedFeature: 'image editing',
    signal: options.signal,
  });
}

/** pending (and `generating`, docs/service.md) are in progress; completed, failed and unknown values end the wait. */
export function isImageSettled(image: Pick<Image, 'status'>): boolean {
  return image.status !== 'pending' && image.status !== 'generating';
}

// What a finished image means for the user: completed, or failed with a reason that has
// advice (the document: content_safety → revise the prompt or use the standard model).
import type { Image } from '../api/index.ts';

const ADVICE: Record<string, string> = {
  content_safety:
    "The provider's content filter blocked the prompt: revise the prompt, or try again with model standard, which is more permissive.",
  rate_limited: 'The image provider was busy: try the edit again later.',
};

/** Advice for a failed image, or null when its reason has none. */
export function imageFailureAdvice(image: Pick<Image, 'status' | 'failureReason'>): string | null {
  if (image.status !== 'failed') return null;
  const reason = image.failureReason ?? '';
  return Object.hasOwn(ADVICE, reason) ? (ADVICE[reason] as string) : null;
}

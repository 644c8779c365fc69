// Images: uploads (exact-match reuse per brand session, AVIF stored as PNG), the unified lookup
// of an image ID (uploaded, scraped or generated, including Library items), and image edits
// (pending → generating → completed | failed).
//
// Deterministic outcome: an edit prompt containing "unsafe" fails with content_safety.
import { createHash } from 'node:crypto';
import type { Detected } from '../magic-bytes.ts';
import { mediaBytes, resolveContent } from '../media-content.ts';
import type { ImageRec } from '../model.ts';
import { hexToRgb, solidPng } from '../png.ts';
import { hashString } from '../prng.ts';
import type { SimState } from '../state.ts';

export function sha256(buf: Buffer): string {
  return createHash('sha256').update(buf).digest('hex');
}

export function aspectRatio(w: number | null, h: number | null): string {
  if (!w || !h) return '1:1';
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const g = gcd(w, h);
  return `${w / g}:${h / g}`;
}

// AVIF is converted to PNG on the server; a conversion stands in with a real PNG of the same size
// (capped, so that a huge header cannot exhaust memory).
const MAX_CONVERTED_SIDE = 4096;

/** A completed uploaded image (uploads, logos), stored under its ID. */
export function storeCompletedImage(
  state: SimState,
  fields: Pick<ImageRec, 'brandId' | 'mimeType' | 'width' | 'height' | 'content'> &
    Partial<Pick<ImageRec, 'description'>>,
): ImageRec {
  const id = state.newId();
  const image: ImageRec = {
    id,
    source: 'uploaded',
    status: 'completed',
    failureReason: null,
    prompt: null,
    description: fields.description ?? null,
    aspectRatio: aspectRatio(fields.width, fields.height),
    width: fields.width,
    height: fields.height,
    actionType: 'upload',
    variantGroupId: id,
    brandId: fields.brandId,
    workspaceId: fields.brandId ? (state.brands.get(fields.brandId)?.workspaceId ?? null) : null,
    mimeType: fields.mimeType,
    model: null,
    imageSize: null,
    createdAt: state.now(),
    content: fields.content,
  };
  state.images.set(id, image);
  return image;
}

/** Stores uploaded bytes for a brand session (or none); reuses an exact match already there. */
export function storeUpload(
  state: SimState,
  brandId: string | null,
  bytes: Buffer,
  det: Detected,
): { image: ImageRec; existing: boolean } {
  const hash = sha256(bytes);
  const scope = brandId ?? '-';
  const priorId = state.media.findUpload(scope, hash);
  const prior = priorId ? state.images.get(priorId) : undefined;
  if (prior) {
    state.media.countUpload(scope, hash, prior.id);
    return { image: prior, existing: true };
  }
  let content = bytes;
  let mimeType = det.mimeType;
  if (det.format === 'avif') {
    const w = Math.min(det.width ?? 1, MAX_CONVERTED_SIDE);
    const h = Math.min(det.height ?? 1, MAX_CONVERTED_SIDE);
    content = solidPng(w, h, [127, 127, 127]);
    mimeType = 'image/png';
  }
  const image = storeCompletedImage(state, {
    brandId,
    mimeType,
    width: det.width,
    height: det.height,
    content,
  });
  const now = image.createdAt;
  state.media.countUpload(scope, hash, image.id);
  if (brandId) {
    state.media.add({
      id: image.id,
      type: 'image',
      source: 'uploaded',
      brandId,
      mimeType,
      fileSize: content.length,
      durationMs: null,
      width: det.width,
      height: det.height,
      description: null,
      inLibrary: true,
      generationId: null,
      createdAt: now,
      addedAt: now,
      content,
    });
  }
  return { image, existing: false };
}

/** Any image by ID: uploaded, generated, or an image of a Library. */
export function findImage(state: SimState, id: string): ImageRec | undefined {
  const image = state.images.get(id);
  if (image) return image;
  const media = state.media.get(id);
  if (!media || media.type !== 'image') return undefined;
  return {
    id: media.id,
    source: media.source,
    status: 'completed',
    failureReason: null,
    prompt: null,
    description: media.description,
    aspectRatio: aspectRatio(media.width, media.height),
    width: media.width,
    height: media.height,
    actionType:
      media.source === 'generated'
        ? 'generation'
        : media.source === 'scraped'
          ? 'scrape'
          : 'upload',
    variantGroupId: media.generationId ?? media.id,
    brandId: media.brandId,
    workspaceId: state.brands.get(media.brandId)?.workspaceId ?? null,
    mimeType: media.mimeType,
    model: null,
    imageSize: null,
    createdAt: media.createdAt,
    content: () => mediaBytes(media),
  };
}

export interface EditInput {
  prompt: string;
  brandId: string;
  imageSize: string;
  model: string;
  referenceImageIds: string[];
  cost: number;
}

/** Starts an edit of subject; the new image is polled with GET /images/{id}. */
export function startImageEdit(state: SimState, subject: ImageRec, input: EditInput): ImageRec {
  const brand = state.brands.get(input.brandId);
  const long = input.imageSize === '4K' ? 4096 : 2048;
  const [rw, rh] = subject.aspectRatio.split(':').map(Number) as [number, number];
  const landscape = rw >= rh;
  const width = landscape ? long : Math.round((long * rw) / rh);
  const height = landscape ? Math.round((long * rh) / rw) : long;
  const image: ImageRec = {
    id: state.newId(),
    source: 'generated',
    status: 'pending',
    failureReason: null,
    prompt: input.prompt,
    description: `Edit of ${subject.id}: ${input.prompt.slice(0, 120)}`,
    aspectRatio: subject.aspectRatio,
    width,
    height,
    actionType: 'edit',
    variantGroupId: subject.variantGroupId,
    brandId: input.brandId,
    workspaceId: brand?.workspaceId ?? null,
    mimeType: 'image/png',
    model: input.model,
    imageSize: input.imageSize,
    createdAt: state.now(),
    content: Buffer.alloc(0),
  };
  state.images.set(image.id, image);
  const half = state.durations.imageMs / 2;
  state.after(half, () => {
    if (image.status !== 'pending') return;
    image.status = 'generating';
    state.notify(`image:${image.id}`);
  });
  state.after(state.durations.imageMs, () => finishImageEdit(state, image, input));
  return image;
}

function finishImageEdit(state: SimState, image: ImageRec, input: EditInput): void {
  const forced = state.outcomes.image.shift();
  const failReason = forced
    ? forced.failReason
    : /unsafe/i.test(input.prompt)
      ? 'content_safety'
      : null;
  if (failReason) {
    image.status = 'failed';
    image.failureReason = failReason;
    const credits = state.creditsOf(image.workspaceId);
    if (!credits.unlimited) credits.balance += input.cost; // a failed edit is not charged
  } else {
    const h = hashString(input.prompt);
    const rgb = hexToRgb('#' + (h & 0xffffff).toString(16).padStart(6, '0'));
    image.content = solidPng(image.width ?? 1, image.height ?? 1, rgb);
    image.status = 'completed';
    const brand = state.brands.get(input.brandId);
    if (brand) {
      state.media.add({
        id: image.id,
        type: 'image',
        source: 'generated',
        brandId: brand.id,
        mimeType: 'image/png',
        fileSize: resolveContent(image.content).length,
        durationMs: null,
        width: image.width,
        height: image.height,
        description: image.description,
        inLibrary: true,
        generationId: state.newId(),
        createdAt: image.createdAt,
        addedAt: state.now(),
        content: image.content,
      });
    }
  }
  state.notify(`image:${image.id}`);
}

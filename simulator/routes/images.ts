// Images and videos: uploads (plain, signed and by URL), GET /images/{id} (long-poll), the image
// edit, GET /videos/{id}.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SimContext } from '../context.ts';
import { noteCreated } from '../context.ts';
import { badRequest, brandNotFound, SimError } from '../errors.ts';
import { waitUntil } from '../http-util.ts';
import { detect } from '../magic-bytes.ts';
import type { Detected } from '../magic-bytes.ts';
import { TERMINAL_IMAGE } from '../model.ts';
import { solidPng } from '../png.ts';
import { hashString } from '../prng.ts';
import type { SimState } from '../state.ts';
import { imageView, mediaView, uploadResultView } from '../views.ts';
import { isUuid, requireObject, requireString, waitParams } from '../validate.ts';
import { findImage, startImageEdit, storeUpload } from '../work/images.ts';
import { checkToken, idempotent, MAX_UPLOAD_BYTES, readUpload } from './common.ts';

const UPLOAD_FORMATS = new Set(['png', 'jpeg', 'webp', 'avif']);
const SIZES = new Set(['2K', '4K']);
const MODELS = new Set(['fast', 'standard', 'pro']);

/** The brand session of an upload: 422 BRAND_NOT_FOUND when it names no brand. */
function uploadBrand(state: SimState, id: string | undefined): string | null {
  if (id === undefined || id === '') return null;
  if (!isUuid(id) || !state.brands.has(id)) throw brandNotFound(422);
  return id;
}

function checkUploadBytes(bytes: Buffer | null, tooLarge: boolean): Detected {
  if (tooLarge)
    throw new SimError(
      400,
      'FILE_TOO_LARGE',
      `image is larger than ${MAX_UPLOAD_BYTES} bytes (10 MB)`,
    );
  if (!bytes || bytes.length === 0) throw badRequest('no image file in the request', 'file');
  const det = detect(bytes);
  if (!det || !UPLOAD_FORMATS.has(det.format)) {
    throw new SimError(400, 'UNSUPPORTED_FORMAT', 'image must be PNG, JPEG, WebP or AVIF');
  }
  return det;
}

export function registerImageRoutes(app: FastifyInstance, ctx: SimContext): void {
  const { state } = ctx;

  const upload = async (request: FastifyRequest, tokenBrand: string | null) => {
    const up = await readUpload(request);
    const brandId = uploadBrand(state, up.fields.brandSessionId ?? tokenBrand ?? undefined);
    const det = checkUploadBytes(up.bytes, up.tooLarge);
    const { image, existing } = storeUpload(state, brandId, up.bytes as Buffer, det);
    if (!existing) noteCreated(request, 'image', image.id);
    return { data: uploadResultView(state, image, existing) };
  };

  app.post('/v1/images/uploads/file', async (request) => upload(request, null));

  app.post<{ Params: { token: string } }>(
    '/v1/images/uploads/file/signed/:token',
    { config: { auth: 'token' } },
    async (request) => {
      const token = checkToken(ctx, request, request.params.token, 'image');
      const answer = await upload(request, token.brandId);
      token.used = true;
      return answer;
    },
  );

  // assumed: not in the interface document (docs/service.md "Remote image").
  // The simulator fetches nothing: the URL decides the result. A URL containing
  // fail-DOWNLOAD_FAILED, fail-UNSUPPORTED_FORMAT or fail-FILE_TOO_LARGE fails with that code;
  // any other http(s) URL "downloads" a PNG derived from the URL.
  app.post('/v1/images/uploads', async (request) => {
    const body = requireObject(request.body);
    const imageUrl = requireString(body, 'imageUrl', 1, 4096);
    let url: URL;
    try {
      url = new URL(imageUrl);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
    } catch {
      throw new SimError(400, 'INVALID_URL', 'imageUrl is not a valid http(s) URL');
    }
    const brandSessionId = body.brandSessionId;
    if (
      brandSessionId !== undefined &&
      (typeof brandSessionId !== 'string' || !state.brands.has(brandSessionId))
    ) {
      throw brandNotFound(404);
    }
    const m = /fail-(DOWNLOAD_FAILED|UNSUPPORTED_FORMAT|FILE_TOO_LARGE)/i.exec(imageUrl);
    if (m) {
      const code = (m[1] as string).toUpperCase();
      throw new SimError(400, code, `the image at imageUrl could not be used (${code})`);
    }
    const h = hashString(url.href);
    const bytes = solidPng(320 + (h % 5) * 80, 240, [
      h & 0xff,
      (h >>> 8) & 0xff,
      (h >>> 16) & 0xff,
    ]);
    const det = detect(bytes) as Detected;
    const { image, existing } = storeUpload(
      state,
      (brandSessionId as string | undefined) ?? null,
      bytes,
      det,
    );
    if (!existing) noteCreated(request, 'image', image.id);
    return { data: uploadResultView(state, image, existing) };
  });

  app.get<{ Params: { id: string } }>('/v1/images/:id', async (request, reply) => {
    const { wait, timeoutS } = waitParams(request.query as Record<string, unknown>);
    const find = () =>
      isUuid(request.params.id) ? findImage(state, request.params.id) : undefined;
    const image = find();
    if (!image) throw new SimError(404, 'IMAGE_NOT_FOUND', 'image not found');
    if (wait)
      await waitUntil(
        state,
        reply,
        `image:${image.id}`,
        () => TERMINAL_IMAGE.has(image.status),
        timeoutS,
      );
    return { data: imageView(state, image) };
  });

  // assumed: path not in the interface document (docs/service.md "Path of the image edit operation").
  app.post<{ Params: { id: string } }>('/v1/images/:id/edit', async (request, reply) =>
    idempotent(ctx, request, reply, () => {
      const body = requireObject(request.body);
      const prompt = requireString(body, 'prompt', 1, 2000);
      const brandId = body.brandSessionId;
      if (brandId === undefined) throw badRequest('brandSessionId is required', 'brandSessionId');
      if (!isUuid(brandId)) throw badRequest('brandSessionId must be a UUID', 'brandSessionId');
      const imageSize = body.imageSize ?? '2K';
      if (typeof imageSize !== 'string' || !SIZES.has(imageSize))
        throw badRequest('imageSize must be 2K or 4K', 'imageSize');
      const model = body.model ?? 'pro';
      if (typeof model !== 'string' || !MODELS.has(model))
        throw badRequest('model must be fast, standard or pro', 'model');
      const refs = body.referenceImageIds ?? [];
      if (!Array.isArray(refs) || refs.some((r) => !isUuid(r))) {
        throw badRequest('referenceImageIds must be an array of UUIDs', 'referenceImageIds');
      }
      if (refs.length > 9) {
        throw new SimError(
          400,
          'REFERENCE_LIMIT_EXCEEDED',
          `at most 9 reference images, got ${refs.length}`,
          { max: 9 },
        );
      }
      const ent = state.account.entitlements;
      if (!ent.has('image-edit')) throw new SimError(403, 'FORBIDDEN', 'plan upgrade required');
      if (imageSize === '4K' && !ent.has('4k')) {
        throw new SimError(403, 'FEATURE_NOT_ENTITLED', '4K output is not included in this plan', {
          feature: '4K',
        });
      }
      if (body.model !== undefined && !ent.has('model-selection')) {
        throw new SimError(
          403,
          'BETA_ACCESS_REQUIRED',
          'selected-model generation is not enabled for this account',
        );
      }
      const brand = state.brands.get(brandId);
      if (!brand) throw brandNotFound(404);
      const subject = isUuid(request.params.id) ? findImage(state, request.params.id) : undefined;
      if (!subject)
        throw new SimError(404, 'EDIT_SUBJECT_NOT_FOUND', 'the image to edit does not exist');
      if (subject.status !== 'completed') {
        throw new SimError(
          400,
          'EDIT_SUBJECT_NOT_COMPLETED',
          `the image to edit is ${subject.status}, not completed`,
        );
      }
      for (const r of refs as string[]) {
        if (!findImage(state, r)) {
          throw new SimError(
            404,
            'REFERENCE_IMAGE_NOT_FOUND',
            `reference image ${r} does not exist`,
            { imageId: r },
          );
        }
      }
      const cost = imageSize === '4K' ? 2 : 1;
      const credits = state.creditsOf(brand.workspaceId);
      if (credits.paymentRequired) {
        throw new SimError(402, 'PAYMENT_REQUIRED', 'payment required to continue', {
          action_url: state.url('/billing'),
        });
      }
      if (!credits.unlimited && credits.balance < cost) {
        throw new SimError(
          402,
          'INSUFFICIENT_CREDITS',
          `this edit costs ${cost} credits; the balance is ${credits.balance}`,
          {
            required: cost,
            balance: credits.balance,
          },
        );
      }
      if (!credits.unlimited) credits.balance -= cost;
      const image = startImageEdit(state, subject, {
        prompt,
        brandId,
        imageSize,
        model,
        referenceImageIds: refs as string[],
        cost,
      });
      noteCreated(request, 'image', image.id);
      return { body: { data: { id: image.id, status: image.status } } };
    }),
  );

  app.get<{ Params: { id: string } }>('/v1/videos/:id', async (request) => {
    const media = isUuid(request.params.id) ? state.media.get(request.params.id) : undefined;
    if (!media || media.type !== 'video')
      throw new SimError(404, 'MEDIA_NOT_FOUND', 'video not found');
    return { data: mediaView(state, media) };
  });
}

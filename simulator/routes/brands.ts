// Brands (generally available flow): create, list, get (long-poll), delete, logo (plain and
// signed), exports and the Library.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SimContext } from '../context.ts';
import { noteCreated } from '../context.ts';
import { decodeCursor, encodeCursor, pageBySeq } from '../cursor.ts';
import { badRequest, brandNotFound, SimError } from '../errors.ts';
import { waitUntil } from '../http-util.ts';
import { detect } from '../magic-bytes.ts';
import type { Brand, Logo } from '../model.ts';
import { TERMINAL_BRAND, TERMINAL_EXPORT } from '../model.ts';
import { brandView, exportView, mediaView } from '../views.ts';
import type { SimState } from '../state.ts';
import {
  isUuid,
  optionalBoolean,
  optionalString,
  queryInt,
  queryString,
  requireObject,
  waitParams,
} from '../validate.ts';
import { createBrand, deleteBrand, requestExport, startLogoAnalysis } from '../work/brands.ts';
import { storeCompletedImage } from '../work/images.ts';
import { parseSources, siteKey } from '../work/sources.ts';
import { checkToken, idempotent, MAX_UPLOAD_BYTES, readUpload } from './common.ts';

type IdParams = { id: string };

export function brandOr404(state: SimState, id: string, status: 404 | 422 = 404): Brand {
  const brand = isUuid(id) ? state.brands.get(id) : undefined;
  if (!brand) throw brandNotFound(status);
  return brand;
}

const LOGO_FORMATS = new Set(['png', 'jpeg', 'webp', 'svg', 'avif']);
const EXT: Record<string, string> = {
  png: 'png',
  jpeg: 'jpg',
  webp: 'webp',
  svg: 'svg',
  avif: 'avif',
};

export function registerBrandRoutes(app: FastifyInstance, ctx: SimContext): void {
  const { state } = ctx;

  app.post('/v1/brands', async (request, reply) =>
    idempotent(ctx, request, reply, () => {
      const body = requireObject(request.body);
      if (body.brandName !== undefined) {
        throw badRequest(
          'brandName is not accepted: the name is derived from the sources',
          'brandName',
        );
      }
      const instructions = optionalString(body, 'instructions', 0, 4000) ?? null;
      const allowDuplicate = optionalBoolean(body, 'allowDuplicate') ?? false;
      const workspaceId = state.requireWorkspace(body.workspaceId);
      const { sources, failCode } = parseSources(state, body.sources, 'brands', workspaceId);
      const site = siteKey(sources.find((s) => s.kind === 'website')?.url ?? null);
      if (site && !allowDuplicate && state.duplicateDetection) {
        const matches = [...state.brands.values()].filter(
          (b) => b.status !== 'failed' && b.workspaceId === workspaceId && siteKey(b.url) === site,
        );
        if (matches.length > 0) {
          // assumed: not in the interface document (docs/service.md: creation may answer with the matches).
          throw new SimError(
            409,
            'DUPLICATE_BRAND',
            'a brand with this website already exists; send allowDuplicate: true to create another',
            {
              brands: matches.map((b) => ({
                id: b.id,
                name: b.name,
                url: b.url,
                status: b.status,
              })),
            },
          );
        }
      }
      const brand = createBrand(state, { sources, instructions, workspaceId, failCode });
      noteCreated(request, 'brand', brand.id);
      return { body: { data: { id: brand.id, status: brand.status } } };
    }),
  );

  // assumed: not in the interface document (docs/service.md "GET /brands list shape").
  app.get('/v1/brands', async (request) => {
    const q = request.query as Record<string, unknown>;
    const limit = queryInt(q, 'limit', 1, 100, 50);
    const workspaceId = state.requireWorkspace(queryString(q, 'workspaceId'));
    const brands = [...state.brands.values()].filter(
      (b) => !workspaceId || b.workspaceId === workspaceId,
    );
    const { page, nextCursor, hasMore } = pageBySeq(
      brands,
      'brands',
      queryString(q, 'cursor'),
      limit,
    );
    return { data: { brands: page.map((b) => brandView(state, b)), nextCursor, hasMore } };
  });

  app.get<{ Params: IdParams }>('/v1/brands/:id', async (request, reply) => {
    const { wait, timeoutS } = waitParams(request.query as Record<string, unknown>);
    const brand = brandOr404(state, request.params.id);
    if (wait) {
      await waitUntil(
        state,
        reply,
        `brand:${brand.id}`,
        () => TERMINAL_BRAND.has(brand.status) || !state.brands.has(brand.id),
        timeoutS,
      );
    }
    return { data: brandView(state, brandOr404(state, request.params.id)) };
  });

  app.delete<{ Params: IdParams }>('/v1/brands/:id', async (request) => {
    const brand = brandOr404(state, request.params.id);
    deleteBrand(state, brand);
    return {
      data: {
        id: brand.id,
        name: brand.name,
        workspaceId: brand.workspaceId,
        workspaceName: state.workspaceName(brand.workspaceId),
      },
    };
  });

  const logoUpload = async (
    request: FastifyRequest,
    reply: FastifyReply,
    brand: Brand,
  ): Promise<unknown> => {
    const upload = await readUpload(request);
    if (upload.tooLarge)
      throw new SimError(
        400,
        'INVALID_LOGO',
        `logo is larger than ${MAX_UPLOAD_BYTES} bytes (10 MB)`,
      );
    if (!upload.bytes || upload.bytes.length === 0)
      throw new SimError(400, 'INVALID_LOGO', 'no logo file in the request');
    const det = detect(upload.bytes);
    if (!det || !LOGO_FORMATS.has(det.format)) {
      throw new SimError(400, 'INVALID_LOGO', 'logo must be PNG, JPEG, WebP, SVG or AVIF');
    }
    const bytes = upload.bytes;
    const logo: Logo = {
      bytes,
      mimeType: det.mimeType,
      ext: EXT[det.format] as string,
      imageId: null,
    };
    startLogoAnalysis(state, brand, logo); // throws 409 BRAND_NOT_READY before anything is stored
    logo.imageId = storeCompletedImage(state, {
      brandId: brand.id,
      mimeType: det.mimeType,
      width: det.width,
      height: det.height,
      content: bytes,
      description: `Logo of ${brand.name ?? brand.id}`,
    }).id;
    return reply.send({ data: { id: brand.id, status: brand.status } });
  };

  app.put<{ Params: IdParams }>('/v1/brands/:id/logo/file', async (request, reply) => {
    const brand = brandOr404(state, request.params.id);
    return logoUpload(request, reply, brand);
  });

  app.put<{ Params: IdParams & { token: string } }>(
    '/v1/brands/:id/logo/file/signed/:token',
    { config: { auth: 'token' } },
    async (request, reply) => {
      const token = checkToken(ctx, request, request.params.token, 'logo', request.params.id);
      const brand = brandOr404(state, request.params.id);
      const answer = await logoUpload(request, reply, brand);
      token.used = true;
      return answer;
    },
  );

  app.post<{ Params: IdParams }>('/v1/brands/:id/exports', async (request) => {
    const brand = brandOr404(state, request.params.id);
    const before = state.exportBySkill.get(brand.skillId ?? '');
    const rec = requestExport(state, brand);
    if (rec.id !== before) noteCreated(request, 'export', rec.id);
    return { data: exportView(state, rec) };
  });

  app.get<{ Params: IdParams & { skillId: string } }>(
    '/v1/brands/:id/exports/:skillId',
    async (request, reply) => {
      const { wait, timeoutS } = waitParams(request.query as Record<string, unknown>);
      const brand = brandOr404(state, request.params.id);
      const { skillId } = request.params;
      if (!isUuid(skillId)) throw badRequest('skillId must be a UUID', 'skillId');
      const find = () => {
        const id = state.exportBySkill.get(skillId);
        const rec = id ? state.exports.get(id) : undefined;
        return rec && rec.brandId === brand.id ? rec : undefined;
      };
      const rec = find();
      if (!rec)
        throw new SimError(
          404,
          'EXPORT_NOT_FOUND',
          'no export of this Skill; POST /brands/{id}/exports first',
        );
      if (wait)
        await waitUntil(
          state,
          reply,
          `export:${skillId}`,
          () => TERMINAL_EXPORT.has(find()?.status ?? 'ready'),
          timeoutS,
        );
      return { data: exportView(state, find() ?? rec) };
    },
  );

  app.get<{ Params: IdParams }>('/v1/brands/:id/library', async (request) => {
    const brand = brandOr404(state, request.params.id);
    const q = request.query as Record<string, unknown>;
    const type = queryString(q, 'type');
    if (type !== undefined && !['image', 'video', 'audio'].includes(type)) {
      throw badRequest('type must be one of image, video, audio', 'type');
    }
    const limit = queryInt(q, 'limit', 1, 100, 50);
    const cursor = queryString(q, 'cursor');
    const scope = `library:${brand.id}`;
    let before: number | undefined;
    if (cursor !== undefined) {
      before = decodeCursor(scope, cursor);
      if (before > state.media.headSeq(brand.id) + 1) {
        throw new SimError(
          400,
          'INVALID_CURSOR',
          'cursor is invalid or belongs to another listing',
        );
      }
    }
    const page = state.media.page(brand.id, { type, limit, before });
    const last = page.items.at(-1);
    return {
      data: {
        items: page.items.map((m) => mediaView(state, m)),
        nextCursor: page.hasMore && last ? encodeCursor(scope, last.seq) : null,
        hasMore: page.hasMore,
      },
    };
  });
}

// Pieces shared by routes: the idempotent-POST wrapper, multipart reading, signed-token use.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SimContext } from '../context.ts';
import { infoOf } from '../context.ts';
import { SimError } from '../errors.ts';
import { checkIdempotencyKey, fingerprint } from '../idempotency.ts';
import type { UploadToken } from '../model.ts';
import { admit } from '../auth.ts';

/** The upload limit of images and logos: 10 MB is 10,000,000 bytes (docs/service.md, 10 MB upload limit). */
export const MAX_UPLOAD_BYTES = 10_000_000;

export interface Answer {
  status?: number;
  body: unknown;
}

/** Runs fn once per Idempotency-Key (when the header is present) and sends its answer. */
export async function idempotent(
  ctx: SimContext,
  request: FastifyRequest,
  reply: FastifyReply,
  fn: () => Promise<Answer> | Answer,
): Promise<unknown> {
  const key = request.headers['idempotency-key'];
  if (key === undefined) {
    const a = await fn();
    return reply.code(a.status ?? 200).send(a.body);
  }
  if (typeof key !== 'string')
    throw new SimError(400, 'BAD_REQUEST', 'send one Idempotency-Key header');
  checkIdempotencyKey(key);
  const info = infoOf(request);
  const scope = `${info?.keyLabel ?? '-'}|${info?.routeKey ?? request.url}`;
  const path = request.url.split('?')[0] as string;
  const { result, replayed } = await ctx.idempotency.run(
    scope,
    key,
    fingerprint(path, request.body),
    async () => {
      const a = await fn();
      return { status: a.status ?? 200, body: a.body };
    },
  );
  if (replayed && info) info.entry.outcome = 'replayed';
  return reply.code(result.status).send(result.body);
}

export interface Upload {
  bytes: Buffer | null;
  tooLarge: boolean;
  fields: Record<string, string>;
}

/** Reads a multipart/form-data body: the first file (at most 10 MB) and the text fields. */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new SimError(400, 'BAD_REQUEST', 'the body must be multipart/form-data with a file part');
  }
  const out: Upload = { bytes: null, tooLarge: false, fields: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (out.bytes !== null || out.tooLarge) {
          await part.toBuffer().catch(() => undefined);
          continue;
        }
        try {
          out.bytes = await part.toBuffer();
        } catch (err) {
          if ((err as { code?: string }).code !== 'FST_REQ_FILE_TOO_LARGE') throw err;
          out.tooLarge = true;
        }
      } else if (typeof part.value === 'string') {
        out.fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      out.tooLarge = true;
      return out;
    }
    if (code === 'FST_FILES_LIMIT')
      throw new SimError(400, 'BAD_REQUEST', 'send one file per request');
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new SimError(400, 'BAD_REQUEST', 'too many form fields');
    if (err instanceof SimError) throw err;
    throw new SimError(400, 'BAD_REQUEST', `malformed multipart body: ${(err as Error).message}`);
  }
  return out;
}

/**
 * Checks the path token of a signed upload endpoint: 401 INVALID_UPLOAD_TOKEN when unknown,
 * of another kind or brand, expired or used; then the ban and rate limit of the key it was
 * issued for. The caller marks it used once the upload succeeded.
 */
export function checkToken(
  ctx: SimContext,
  request: FastifyRequest,
  token: string,
  kind: UploadToken['kind'],
  brandId?: string,
): UploadToken {
  const info = infoOf(request);
  if (info) {
    info.entry.outcome = 'rejected';
    info.entry.key = 'token';
  }
  const t = ctx.state.uploadTokens.get(token);
  const invalid =
    !t || t.kind !== kind || (t.brandId !== null && brandId !== undefined && t.brandId !== brandId);
  if (invalid) throw new SimError(401, 'INVALID_UPLOAD_TOKEN', 'upload token is invalid');
  if (t.used) throw new SimError(401, 'INVALID_UPLOAD_TOKEN', 'upload token was already used');
  if (t.expiresAt <= ctx.state.now())
    throw new SimError(401, 'INVALID_UPLOAD_TOKEN', 'upload token has expired');
  admit(ctx, t.keyLabel);
  if (info) info.entry.outcome = 'processed';
  return t;
}

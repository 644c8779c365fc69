// assumed: not in the interface document (docs/service.md "Staging a local file"): POST /uploads with
// {fileName, mimeType, size, workspaceId?} answers {id, uploadUrl, expiresAt}; the raw bytes
// go by PUT uploadUrl (no API key: the URL is the credential) and must be exactly `size` long.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.ts';
import { noteCreated } from '../context.ts';
import { badRequest, SimError } from '../errors.ts';
import type { StagedUpload } from '../model.ts';
import { requireObject, requireString } from '../validate.ts';
import { MAX_SOURCE_FILE } from '../work/sources.ts';

export function registerStagingRoutes(app: FastifyInstance, ctx: SimContext): void {
  const { state } = ctx;

  app.post('/v1/uploads', async (request) => {
    const body = requireObject(request.body);
    const fileName = requireString(body, 'fileName', 1, 255);
    const mimeType = requireString(body, 'mimeType', 1, 255);
    const size = body.size;
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 1) {
      throw badRequest('size must be a positive integer (bytes)', 'size');
    }
    if (size > MAX_SOURCE_FILE) {
      throw new SimError(
        400,
        'FILE_TOO_LARGE',
        `a source file may be at most ${MAX_SOURCE_FILE} bytes (100 MiB)`,
      );
    }
    const workspaceId = state.requireWorkspace(body.workspaceId);
    const staged: StagedUpload = {
      id: state.newId(),
      token: state.token(),
      fileName,
      mimeType,
      size,
      workspaceId,
      expiresAt: state.now() + state.durations.stagedUploadTtlMs,
      received: null,
    };
    state.staged.set(staged.id, staged);
    noteCreated(request, 'upload', staged.id);
    return {
      data: {
        id: staged.id,
        uploadUrl: state.url(`/uploads/${staged.id}/${staged.token}`),
        expiresAt: state.iso(staged.expiresAt),
      },
    };
  });

  // Raw bytes of any content type: the body is read here as a stream, never buffered whole.
  void app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, _payload, done) => done(null));
    raw.put<{ Params: { id: string; token: string } }>(
      '/uploads/:id/:token',
      { config: { auth: 'none' } },
      async (request) => {
        const staged = state.staged.get(request.params.id);
        if (!staged || staged.token !== request.params.token) {
          throw new SimError(401, 'INVALID_UPLOAD_TOKEN', 'upload URL is invalid');
        }
        if (staged.expiresAt <= state.now())
          throw new SimError(401, 'INVALID_UPLOAD_TOKEN', 'upload URL has expired');
        const hash = createHash('sha256');
        let received = 0;
        let head = Buffer.alloc(0);
        for await (const chunk of request.raw as AsyncIterable<Buffer>) {
          received += chunk.length;
          if (received > staged.size) {
            throw new SimError(
              400,
              'SIZE_MISMATCH',
              `more than the declared ${staged.size} bytes were sent`,
            );
          }
          if (head.length < 16) head = Buffer.concat([head, chunk.subarray(0, 16 - head.length)]);
          hash.update(chunk);
        }
        if (received !== staged.size) {
          throw new SimError(
            400,
            'SIZE_MISMATCH',
            `${received} bytes were sent; ${staged.size} were declared`,
          );
        }
        staged.received = { sha256: hash.digest('hex'), head };
        return { data: { id: staged.id, size: received } };
      },
    );
  });
}

// Downloads served by the simulator itself: export and beta ZIPs, logos, media files (with
// Range), and the short /img/<id> redirect of images.
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.ts';
import { SimError } from '../errors.ts';
import { sendBytes } from '../http-util.ts';
import { mediaBytes, resolveContent } from '../media-content.ts';
import { mediaUrl } from '../views.ts';
import { findImage } from '../work/images.ts';

const gone = () => new SimError(404, 'FILE_NOT_FOUND', 'file not found');

export function registerFileRoutes(app: FastifyInstance, ctx: SimContext): void {
  const { state } = ctx;
  const none = { config: { auth: 'none' as const } };

  app.get<{ Params: { kind: string; token: string; name: string } }>(
    '/files/:kind/:token/:name',
    none,
    async (request, reply) => {
      const { kind, token, name } = request.params;
      if (kind === 'media') {
        // /files/media/<id>/<signature>: the signature is the unguessable part.
        const media = state.media.get(token);
        if (!media || name !== state.sign(media.id)) throw gone();
        return sendBytes(request, reply, mediaBytes(media), media.mimeType, undefined, state);
      }
      if (kind === 'logos') {
        const [skillId, sig] = [token, name.replace(/\.[a-z]+$/, '')];
        const skill = state.skills.get(skillId);
        if (!skill || sig !== state.sign(skill.id)) throw gone();
        return sendBytes(request, reply, skill.logo.bytes, skill.logo.mimeType, undefined, state);
      }
      if (kind === 'images') {
        const image = findImage(state, token);
        if (!image || image.status !== 'completed' || name !== state.sign(image.id)) throw gone();
        return sendBytes(
          request,
          reply,
          resolveContent(image.content),
          image.mimeType,
          undefined,
          state,
        );
      }
      const file = state.files.get(`/files/${kind}/${token}/${encodeURIComponent(name)}`);
      if (!file) throw gone();
      return sendBytes(
        request,
        reply,
        resolveContent(file.content),
        file.mimeType,
        file.fileName,
        state,
      );
    },
  );

  // The short image URL: a redirect to the file (simulator/INTERFACE.md, Images: `${origin}/img/<id>`).
  app.get<{ Params: { id: string } }>('/img/:id', none, async (request, reply) => {
    const image = findImage(state, request.params.id);
    if (!image || image.status !== 'completed')
      throw new SimError(404, 'IMAGE_NOT_FOUND', 'image not found');
    const media = state.media.get(image.id);
    const target = media
      ? mediaUrl(state, media.id)
      : state.url(`/files/images/${image.id}/${state.sign(image.id)}`);
    return reply.redirect(target, 302);
  });
}

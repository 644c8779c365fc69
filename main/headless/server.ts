// The headless host: the built window and the bridge over loopback HTTP, for a browser, for
// scripts (the bridge is a documented API) and for the browser tests. Kept pieces do the
// work: fastify, @fastify/static for the window, @fastify/cookie for the session, and
// @fastify/helmet for the headers. The token and the key never reach a log (logging is off).
import { createReadStream } from 'node:fs';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AppRuntime } from '../engine/app/app-runtime.ts';
import { createHandlers } from '../engine/app/bridge-handlers.ts';
import { dispatch } from '../engine/app/bridge-dispatch.ts';
import { fileFor } from '../engine/app/file-access.ts';
import { mimeTypeOf } from '../engine/views/skill-view.ts';
import {
  bearerOf,
  CONTENT_SECURITY_POLICY,
  FILES_CONTENT_SECURITY_POLICY,
  servedType,
  hostAllowed,
  newSecret,
  originAllowed,
  sameSecret,
  SESSION_COOKIE,
} from './security.ts';

export interface HeadlessHostOptions {
  app: AppRuntime;
  /** 0 picks a free port. */
  port: number;
  /** When the port is taken, take a free one instead (the default port; never one asked for). */
  portFallback?: boolean;
  rendererDir: string;
  /** Tests pass their own; otherwise a random one per start. */
  token?: string;
}

export interface HeadlessHost {
  /** The URL to open: it carries the token, exchanged at the first visit for a cookie. */
  url: string;
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** Failed results: a malformed request 400, an unknown name 404, a refusal 422, a passing trouble 503. */
function statusOf(code: string, retryable: boolean): number {
  if (code === 'VALIDATION_ERROR' || code === 'BAD_REQUEST') return 400;
  if (code === 'UNKNOWN_CHANNEL') return 404;
  return retryable ? 503 : 422;
}

const HEARTBEAT_MS = 15_000;

export async function startHeadlessHost(options: HeadlessHostOptions): Promise<HeadlessHost> {
  const { app } = options;
  const token = options.token ?? newSecret();
  // The cookie holds its own secret: the token in a URL may end up in a history, the cookie not.
  const session = newSecret();
  const handlers = createHandlers(app);
  const streams = new Set<FastifyReply>();
  let port = options.port;

  const server: FastifyInstance = Fastify({
    logger: false,
    // Files dropped onto the window arrive as JSON (base64): at most 5 of up to 10 MB each.
    bodyLimit: 72 * 1024 * 1024,
    forceCloseConnections: true,
    // Never behind a proxy: the peer is the browser on this machine.
    trustProxy: false,
  });

  // An empty body is an empty input (`curl -X POST …/api/status`); anything else must be JSON.
  server.removeContentTypeParser('application/json');
  server.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(Object.assign(error as Error, { statusCode: 400 }), undefined);
    }
  });
  await server.register(fastifyCookie);
  await server.register(fastifyHelmet, {
    contentSecurityPolicy: false, // set below, exactly, on every answer
    hsts: false, // plain http on loopback
    crossOriginEmbedderPolicy: false,
  });

  server.addHook('onRequest', async (request, reply) => {
    // DNS rebinding: a page of another site resolved to 127.0.0.1 still sends its own Host.
    if (!hostAllowed(request.headers.host, port)) {
      return reply
        .code(403)
        .type('text/plain')
        .send('Forbidden: this server answers only to 127.0.0.1 and localhost.');
    }
    const origin = request.headers.origin;
    if (!originAllowed(origin, port)) {
      return reply
        .code(403)
        .type('text/plain')
        .send('Forbidden: requests from other origins are refused.');
    }
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cache-control', 'no-store');
    const url = request.url;
    if (url.startsWith('/api/') || url === '/api' || url.startsWith('/files/')) {
      const cookie = request.cookies[SESSION_COOKIE];
      if (
        !sameSecret(cookie, session) &&
        !sameSecret(bearerOf(request.headers.authorization), token)
      ) {
        return reply.code(401).send({
          ok: false,
          error: {
            code: 'UNAUTHORIZED',
            message:
              'Open the URL that `brand-sync serve` printed (it signs this browser in), or send Authorization: Bearer <token>.',
            retryable: false,
          },
        });
      }
    }
  });

  // The first visit: the token from the printed URL becomes the session cookie, and the URL loses it.
  server.get('/', async (request: FastifyRequest<{ Querystring: { token?: string } }>, reply) => {
    const given = request.query.token;
    if (given !== undefined) {
      if (!sameSecret(given, token)) {
        return reply
          .code(401)
          .type('text/plain')
          .send(
            'This link is not valid (Brand Sync was restarted?): open the URL it printed last.',
          );
      }
      reply.setCookie(SESSION_COOKIE, session, {
        httpOnly: true,
        sameSite: 'strict',
        path: '/',
        secure: false,
      });
      return reply.redirect('/', 303);
    }
    return reply.type('text/html').sendFile('index.html');
  });

  await server.register(fastifyStatic, {
    root: options.rendererDir,
    prefix: '/',
    index: false,
    wildcard: true,
    cacheControl: false,
    dotfiles: 'deny',
  });

  server.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(400).send({
        ok: false,
        error: {
          code: 'VALIDATION_ERROR',
          message: `The request is malformed: ${error.message}`,
          retryable: false,
        },
      });
    }
    return reply.code(500).send({
      ok: false,
      error: {
        code: 'INTERNAL_ERROR',
        message: 'Brand Sync failed to answer this request.',
        retryable: false,
      },
    });
  });

  server.post(
    '/api/:name',
    async (request: FastifyRequest<{ Params: { name: string } }>, reply) => {
      const result = await dispatch(handlers, request.params.name, request.body, () => app.secret);
      if (!result.ok) reply.code(statusOf(result.error.code, result.error.retryable));
      return result;
    },
  );

  server.get('/api/events', (request, reply) => {
    const header = request.headers['last-event-id'];
    const query = (request.query as { since?: string }).since;
    const raw = Array.isArray(header) ? header[0] : (header ?? query);
    const last = raw === undefined ? app.journal.lastSeq : Number(raw);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-content-type-options': 'nosniff',
    });
    res.write('retry: 2000\n\n');
    const send = (event: { seq: number }) =>
      res.write(`id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`);
    for (const event of app.journal.since(Number.isFinite(last) ? last : 0).events) send(event);
    const off = app.journal.subscribe(send);
    const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    streams.add(reply);
    res.on('close', () => {
      off();
      clearInterval(beat);
      streams.delete(reply);
    });
  });

  const notFound = (reply: FastifyReply, what: string) =>
    reply
      .code(404)
      .send({ ok: false, error: { code: 'NOT_FOUND', message: what, retryable: false } });

  const sendFile = (reply: FastifyReply, file: string, mimeType: string | null) => {
    reply.header('content-type', servedType(mimeType ?? mimeTypeOf(file)));
    reply.header('content-security-policy', FILES_CONTENT_SECURITY_POLICY);
    reply.header('cache-control', 'private, max-age=60');
    return reply.send(createReadStream(file));
  };

  server.get('/files/*', async (request: FastifyRequest<{ Params: { '*': string } }>, reply) => {
    // fastify has decoded the path once: `%2e%2e` arrives as `..` and is refused below.
    const file = await fileFor(app, request.params['*'].split('/'));
    if (file === null) return notFound(reply, 'No such file on this computer.');
    return sendFile(reply, file.path, file.mimeType);
  });

  server.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url.startsWith('/files/')) {
      return notFound(reply, 'Nothing here.');
    }
    // The window routes inside one page: any other path is the page.
    return reply.type('text/html').sendFile('index.html');
  });

  try {
    await server.listen({ host: '127.0.0.1', port, ipv6Only: false });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EADDRINUSE' || port === 0 || !options.portFallback) {
      throw error;
    }
    port = 0;
    await server.listen({ host: '127.0.0.1', port: 0 });
  }
  const address = server.server.address();
  port = typeof address === 'object' && address !== null ? address.port : port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    async close() {
      for (const stream of streams) stream.raw.end();
      await server.close();
    },
  };
}

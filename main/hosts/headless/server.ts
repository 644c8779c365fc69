// The headless host: the built window and the bridge over loopback HTTP, for a browser, for
// scripts (the bridge is a documented API) and for the browser tests. Kept pieces do the
// work: fastify, @fastify/static for the window, @fastify/cookie for the session, and
// @fastify/helmet for the headers. The token and the key never reach a log (logging is off).
import { createReadStream } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AppRuntime } from '../../engine/app/app-runtime.ts';
import { createHandlers } from '../../engine/app/bridge-handlers.ts';
import { dispatch } from '../../engine/app/bridge-dispatch.ts';
import { fileFor } from '../../engine/app/file-access.ts';
import { mimeTypeOf } from '../../engine/views/skill-view.ts';
import { CHANNEL_NAMES } from '../../../contract/channel-names.ts';
import {
  bearerOf,
  bodyLimitOf,
  CONTENT_SECURITY_POLICY,
  FILES_CONTENT_SECURITY_POLICY,
  jsonTooDeep,
  MAX_JSON_DEPTH,
  servedType,
  hostAllowed,
  newSecret,
  originAllowed,
  sameSecret,
  sessionCookieName,
  Sessions,
  SMALL_BODY_LIMIT,
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
  /** The URL to print: it carries the token, exchanged at each visit for a session cookie. */
  url: string;
  /** A URL to hand to a browser: a one-time code valid for a minute instead of the token. */
  oneTimeUrl(): string;
  /** Every route the host registered (its own and its plugins'), for audits and tests. */
  routes: readonly { method: string; url: string }[];
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
/** Event streams: a window needs one; a few tabs or scripts more are fine, hundreds are not. */
const MAX_STREAMS_PER_SESSION = 8;
const MAX_STREAMS = 32;

/**
 * The routes anyone may reach: the page (and the token or code exchange on it) and its built
 * assets. Every other route, and any path that matches none, needs the session. Judged on the
 * route the router matched (after it decoded the path), never on the raw URL: `/%61pi/status`
 * is routed to `/api/status` and so needs the session like it.
 */
const OPEN_ROUTES: ReadonlySet<string> = new Set(['/', '/assets/*']);

function tooLarge(limit: number) {
  return {
    ok: false,
    error: {
      code: 'PAYLOAD_TOO_LARGE',
      message: `The request body is larger than this channel takes (${limit} bytes at most).`,
      retryable: false,
    },
  };
}

export async function startHeadlessHost(options: HeadlessHostOptions): Promise<HeadlessHost> {
  const { app } = options;
  const token = options.token ?? newSecret();
  // Each exchange of the token makes a session of its own: the token in a URL may end up in a
  // history, a session cookie not, and no cookie value works for every browser forever.
  const sessions = new Sessions();
  const handlers = createHandlers(app);
  const streams = new Set<FastifyReply>();
  const streamsOf = new Map<string, number>();
  let port = options.port;
  // Named once the port is known (listen may pick one).
  let cookieName = sessionCookieName(port);

  const server: FastifyInstance = Fastify({
    logger: false,
    // Per channel below; this bounds every other route.
    bodyLimit: SMALL_BODY_LIMIT,
    // A request must arrive whole within a minute (72 MB over loopback takes well under one),
    // and an idle connection is dropped (event streams beat every 15 s).
    requestTimeout: 60_000,
    connectionTimeout: 120_000,
    forceCloseConnections: true,
    // Never behind a proxy: the peer is the browser on this machine.
    trustProxy: false,
  });

  const routes: { method: string; url: string }[] = [];
  server.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });

  // An empty body is an empty input (`curl -X POST …/api/status`); anything else must be JSON
  // of bounded depth.
  server.removeContentTypeParser('application/json');
  server.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    if (jsonTooDeep(text)) {
      return done(
        Object.assign(new Error(`the JSON nests deeper than ${MAX_JSON_DEPTH} levels`), {
          statusCode: 400,
        }),
        undefined,
      );
    }
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
    const route = request.routeOptions.url;
    const open =
      route !== undefined &&
      OPEN_ROUTES.has(route) &&
      (request.method === 'GET' || request.method === 'HEAD');
    if (!open) {
      if (
        !sessions.valid(request.cookies[cookieName]) &&
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

  // A visit with the printed URL's token (or a one-time code): a new session in the cookie,
  // and the URL loses the secret.
  server.get(
    '/',
    async (request: FastifyRequest<{ Querystring: { token?: string; code?: string } }>, reply) => {
      const { token: given, code } = request.query;
      if (given === undefined && code === undefined) {
        return reply.type('text/html').sendFile('index.html', options.rendererDir);
      }
      if (given !== undefined ? !sameSecret(given, token) : !sessions.redeem(code as string)) {
        return reply
          .code(401)
          .type('text/plain')
          .send(
            given !== undefined
              ? 'This link is not valid (Brand Sync was restarted?): open the URL it printed last.'
              : 'This link was for one visit within a minute: open the URL Brand Sync printed.',
          );
      }
      reply.setCookie(cookieName, sessions.open(), {
        httpOnly: true,
        sameSite: 'strict',
        path: '/',
        secure: false,
      });
      return reply.redirect('/', 303);
    },
  );

  // The page's built scripts and styles (vite puts them all under assets/).
  await server.register(fastifyStatic, {
    root: path.join(options.rendererDir, 'assets'),
    prefix: '/assets/',
    index: false,
    wildcard: true,
    cacheControl: false,
    dotfiles: 'deny',
  });

  server.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status === 413) {
      return reply.code(413).send(tooLarge(request.routeOptions.bodyLimit ?? SMALL_BODY_LIMIT));
    }
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

  // One route per channel, each with the body limit of what it carries: 413 at once, from the
  // declared length, before a byte of an oversized body is read.
  for (const name of CHANNEL_NAMES) {
    server.post(`/api/${name}`, { bodyLimit: bodyLimitOf(name) }, async (request, reply) => {
      const result = await dispatch(handlers, name, request.body, () => app.secret);
      if (!result.ok) reply.code(statusOf(result.error.code, result.error.retryable));
      return result;
    });
  }

  server.get('/api/events', (request, reply) => {
    // Bounded: per session (a cookie, or the token for scripts) and in all.
    const who = request.cookies[cookieName] ?? 'token';
    if (streams.size >= MAX_STREAMS || (streamsOf.get(who) ?? 0) >= MAX_STREAMS_PER_SESSION) {
      return reply.code(429).send({
        ok: false,
        error: {
          code: 'TOO_MANY_STREAMS',
          message: `Too many event streams are open (at most ${MAX_STREAMS_PER_SESSION} per session and ${MAX_STREAMS} in all): close one first.`,
          retryable: true,
        },
      });
    }
    const header = request.headers['last-event-id'];
    const query = (request.query as { since?: string }).since;
    const raw = Array.isArray(header) ? header[0] : (header ?? query);
    const last = raw === undefined ? app.journal.lastSeq : Number(raw);
    reply.hijack();
    const res = reply.raw;
    // Hijacked, the answer skips fastify's sending: its security headers are copied over.
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write('retry: 2000\n\n');
    const send = (event: { seq: number }) =>
      res.write(`id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`);
    for (const event of app.journal.since(Number.isFinite(last) ? last : 0).events) send(event);
    const off = app.journal.subscribe(send);
    const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    streams.add(reply);
    streamsOf.set(who, (streamsOf.get(who) ?? 0) + 1);
    res.on('close', () => {
      off();
      clearInterval(beat);
      streams.delete(reply);
      const left = (streamsOf.get(who) ?? 1) - 1;
      if (left > 0) streamsOf.set(who, left);
      else streamsOf.delete(who);
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

  // Reached only with the session (a path that matches no route is not open).
  server.setNotFoundHandler((request, reply) => {
    const [pathname = ''] = request.url.split('?');
    if (request.method === 'POST' && /^\/api\/[^/]+$/.test(pathname)) {
      return reply.code(404).send({
        ok: false,
        error: { code: 'UNKNOWN_CHANNEL', message: 'No such channel.', retryable: false },
      });
    }
    return notFound(reply, 'Nothing here.');
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
  cookieName = sessionCookieName(port);
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    oneTimeUrl: () => `${origin}/?code=${sessions.newCode()}`,
    routes,
    origin,
    port,
    async close() {
      for (const stream of streams) stream.raw.end();
      await server.close();
    },
  };
}

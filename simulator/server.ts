// The fastify app: the hooks every request goes through (request log, faults, auth, bans, rate
// limit, failNext), the error envelope, and the registration of every route.
//
// Order for a request to /v1: log entry → injected latency and pre-handler faults → credentials
// (x-api-key wins over Authorization: Bearer; missing or wrong → 401 UNAUTHORIZED) → banned key →
// 403 ACCOUNT_BANNED → rate limit per key → 429 → control.failNext → handler → post-handler faults.
import multipart from '@fastify/multipart';
import Fastify from 'fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import type { SimContext } from './context.ts';
import { infoOf, routeKeyOf, setInfo } from './context.ts';
import { envelope, SimError } from './errors.ts';
import { PRE_FAULTS } from './faults.ts';
import type { FaultKind } from './faults.ts';
import { admit, authenticate } from './auth.ts';
import { registerAccountRoutes } from './routes/account.ts';
import { registerBetaRoutes } from './routes/brand-skills.ts';
import { registerBrandRoutes } from './routes/brands.ts';
import { registerEditRoutes } from './routes/edits.ts';
import { registerFileRoutes } from './routes/files.ts';
import { registerImageRoutes } from './routes/images.ts';
import { registerStagingRoutes } from './routes/staging.ts';
import { MAX_UPLOAD_BYTES } from './routes/common.ts';
import { registerControlRoutes } from './control-http.ts';
import type { SimulatorControl } from './control.ts';

export type AuthMode = 'key' | 'token' | 'none';

export function authOf(request: FastifyRequest): AuthMode {
  return request.routeOptions.config?.auth ?? (request.url.startsWith('/v1') ? 'key' : 'none');
}

export async function buildApp(
  ctx: SimContext,
  control: SimulatorControl,
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, bodyLimit: 1_048_576, return503OnClosing: false });

  // Empty bodies are allowed on JSON POSTs ("No body" endpoints), malformed JSON is 400.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new SimError(400, 'BAD_REQUEST', 'request body is not valid JSON'), undefined);
    }
  });

  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, parts: 30 },
  });

  const connections = new WeakMap<object, number>();
  let lastConnection = 0;
  const connectionId = (socket: object): number => {
    let id = connections.get(socket);
    if (id === undefined) connections.set(socket, (id = ++lastConnection));
    return id;
  };

  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/_control')) return;
    const { state, log, faults } = ctx;
    const path = request.url.split('?')[0] as string;
    const entry = log.start({
      method: request.method,
      path,
      simAt: state.now(),
      connection: connectionId(request.raw.socket),
    });
    const routeKey = routeKeyOf(request);
    entry.route = routeKey;
    const idem = request.headers['idempotency-key'];
    if (typeof idem === 'string') entry.idempotencyKey = idem;
    const info = {
      entry,
      routeKey,
      keyLabel: null as string | null,
      postFault: null as FaultKind | null,
    };
    setInfo(request, info);

    const template = routeKey ? routeKey.slice(request.method.length + 1) : null;
    const decision = faults.decide(request.method, template, path);
    if (decision.latencyMs > 0) await new Promise((r) => setTimeout(r, decision.latencyMs));
    if (decision.kind && PRE_FAULTS.has(decision.kind)) {
      entry.outcome = decision.kind;
      return preFault(ctx, request, reply, decision.kind, decision.retryAfterS);
    }
    info.postFault = decision.kind;

    if (!routeKey) {
      entry.outcome = 'rejected';
      return; // the not-found handler answers
    }
    if (authOf(request) !== 'key') return;
    entry.outcome = 'rejected';
    const keyLabel = authenticate(ctx, request);
    info.keyLabel = keyLabel;
    entry.key = keyLabel;
    admit(ctx, keyLabel);
  });

  app.addHook('preHandler', async (request) => {
    const info = infoOf(request);
    if (!info) return;
    const queued = info.routeKey ? ctx.failNext.get(info.routeKey) : undefined;
    const forced = queued?.shift();
    if (queued && queued.length === 0) ctx.failNext.delete(info.routeKey as string);
    if (forced) {
      info.entry.outcome = 'rejected';
      throw forced;
    }
    info.entry.outcome = 'processed'; // a signed route whose token fails sets it back to rejected
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const info = infoOf(request);
    if (!info) return payload;
    const { entry } = info;
    if (reply.statusCode >= 400 && typeof payload === 'string') {
      try {
        const code = (JSON.parse(payload) as { error?: { code?: unknown } }).error?.code;
        if (typeof code === 'string') entry.code = code;
      } catch {
        // not our envelope (a 502 page)
      }
    }
    const retryAfter = reply.getHeader('retry-after');
    if (reply.statusCode === 429 && retryAfter !== undefined) entry.retryAfter = Number(retryAfter);
    const ran = entry.outcome === 'processed' || entry.outcome === 'replayed';
    if (!info.postFault || !ran) return payload;
    return postFault(request, reply, info.postFault, payload);
  });

  app.addHook('onResponse', async (request, reply) => {
    const info = infoOf(request);
    if (!info) return;
    if (
      info.entry.status === null &&
      info.entry.outcome !== 'reset-after' &&
      info.entry.outcome !== 'reset-before'
    ) {
      info.entry.status = reply.statusCode;
    }
    info.entry.durationMs = Date.now() - info.entry.at;
  });

  app.setErrorHandler((err: FastifyError | SimError, request, reply) => {
    if (err instanceof SimError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      return reply.code(err.status).send(err.toBody());
    }
    const status = err.statusCode ?? 500;
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send(envelope(415, 'UNSUPPORTED_MEDIA_TYPE', err.message));
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send(envelope(413, 'PAYLOAD_TOO_LARGE', 'request body is too large'));
    }
    if (status >= 400 && status < 500) {
      return reply.code(status).send(envelope(status, 'BAD_REQUEST', err.message));
    }
    const info = infoOf(request);
    if (info) info.entry.code = 'INTERNAL_ERROR';
    return reply.code(500).send(envelope(500, 'INTERNAL_ERROR', `internal error: ${err.message}`));
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send(
        envelope(404, 'NOT_FOUND', `no route for ${request.method} ${request.url.split('?')[0]}`),
      );
  });

  registerAccountRoutes(app, ctx);
  registerBrandRoutes(app, ctx);
  registerEditRoutes(app, ctx);
  registerImageRoutes(app, ctx);
  registerBetaRoutes(app, ctx);
  registerStagingRoutes(app, ctx);
  registerFileRoutes(app, ctx);
  registerControlRoutes(app, control);
  return app;
}

function preFault(
  ctx: SimContext,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: FaultKind,
  retryAfterS: number,
): FastifyReply | undefined {
  switch (kind) {
    case 'reset-before':
      reply.hijack();
      request.raw.socket.destroy();
      return undefined;
    case '5xx': {
      const status = ctx.faults.pick([500, 502, 503] as const);
      if (status === 502) {
        return reply
          .code(502)
          .type('text/html')
          .send('<html><body><h1>502 Bad Gateway</h1></body></html>');
      }
      const code = status === 500 ? 'INTERNAL_ERROR' : 'SERVICE_UNAVAILABLE';
      return reply.code(status).send(envelope(status, code, 'injected server error'));
    }
    case '429':
      reply.header('retry-after', String(retryAfterS));
      return reply.code(429).send(envelope(429, 'TOO_MANY_REQUESTS', 'rate limit exceeded'));
    case '429-no-retry-after':
      return reply.code(429).send(envelope(429, 'TOO_MANY_REQUESTS', 'rate limit exceeded'));
    default:
      return undefined;
  }
}

function postFault(
  request: FastifyRequest,
  reply: FastifyReply,
  kind: FaultKind,
  payload: unknown,
): unknown {
  const info = infoOf(request);
  if (info) info.entry.outcome = kind;
  const bytes =
    typeof payload === 'string'
      ? Buffer.from(payload)
      : Buffer.isBuffer(payload)
        ? payload
        : Buffer.alloc(0);
  switch (kind) {
    case 'reset-after':
      // The handler ran; the client never hears of it.
      request.raw.socket.destroy();
      return payload;
    case '5xx-after':
      reply.code(500).type('application/json');
      reply.removeHeader('content-length');
      reply.removeHeader('content-range');
      return JSON.stringify(
        envelope(500, 'INTERNAL_ERROR', 'injected server error after processing'),
      );
    case 'malformed':
      reply.removeHeader('content-length');
      return '{"data": {"id": "' + bytes.subarray(0, 12).toString('hex') + '", "status": ';
    case 'truncate': {
      const full = bytes.length;
      const cut = bytes.subarray(0, Math.floor(full / 2));
      reply.header('content-length', full);
      let sent = false;
      return new Readable({
        read() {
          if (!sent) {
            sent = true;
            this.push(cut);
          } else {
            // Give the first half time to leave, then break the connection.
            setTimeout(() => this.destroy(new Error('injected truncation')), 5);
          }
        },
      });
    }
    default:
      return payload;
  }
}

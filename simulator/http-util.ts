// HTTP helpers shared by routes: downloads with Range (the client resumes downloads) and
// long-poll waits on the simulated clock.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { infoOf } from './context.ts';
import type { DownloadCut, SimState } from './state.ts';

/** Sends bytes honouring Range / If-Range: 206 with Content-Range, 416 when unsatisfiable. */
export function sendBytes(
  request: FastifyRequest,
  reply: FastifyReply,
  body: Buffer,
  mimeType: string,
  fileName?: string,
  state?: SimState,
): FastifyReply {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  reply.header('accept-ranges', 'bytes').header('etag', etag).type(mimeType);
  if (fileName)
    reply.header('content-disposition', `attachment; filename="${fileName.replace(/"/g, '')}"`);
  const range = request.headers.range;
  const ifRange = request.headers['if-range'];
  const cut = cutOf(state, request);
  const rangeApplies =
    typeof range === 'string' && (ifRange === undefined || ifRange === etag) && !cut?.ignoreRange;
  if (!rangeApplies) {
    reply.header('content-length', body.length);
    if (cut) return sendCut(request, reply, 200, body, cut.afterBytes);
    return reply.code(200).send(body);
  }
  const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  let start: number;
  let end: number;
  if (!m || (m[1] === '' && m[2] === '')) return unsatisfiable(reply, body.length);
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return unsatisfiable(reply, body.length);
    start = Math.max(0, body.length - suffix);
    end = body.length - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? body.length - 1 : Math.min(Number(m[2]), body.length - 1);
  }
  if (start >= body.length || end < start) return unsatisfiable(reply, body.length);
  const part = body.subarray(start, end + 1);
  reply
    .header('content-range', `bytes ${start}-${end}/${body.length}`)
    .header('content-length', part.length);
  if (cut) return sendCut(request, reply, 206, part, cut.afterBytes);
  return reply.code(206).send(part);
}

/** The cut that applies to this download, counted as used. */
function cutOf(state: SimState | undefined, request: FastifyRequest): DownloadCut | undefined {
  const path = request.url.split('?')[0];
  const cut = state?.downloadCuts.find((c) => c.path === path);
  if (cut === undefined) return undefined;
  cut.remaining--;
  if (cut.remaining <= 0) state?.downloadCuts.splice(state.downloadCuts.indexOf(cut), 1);
  return cut;
}

/** Headers that promise `body`, `afterBytes` of it, then the connection drops. */
function sendCut(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: Buffer,
  afterBytes: number,
): FastifyReply {
  const info = infoOf(request);
  if (info) info.entry.outcome = 'cut';
  const headers = reply.getHeaders() as Record<string, string | number>;
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(status, headers);
  raw.write(body.subarray(0, Math.min(afterBytes, body.length)), () => {
    setTimeout(() => raw.destroy(), 5);
  });
  return reply;
}

function unsatisfiable(reply: FastifyReply, size: number): FastifyReply {
  return reply
    .code(416)
    .header('content-range', `bytes */${size}`)
    .type('application/json')
    .send({
      error: {
        code: 'RANGE_NOT_SATISFIABLE',
        status: 416,
        message: 'requested range not satisfiable',
      },
    });
}

/**
 * Holds the request until done() is true after a change of `key`, or timeoutS of simulated time
 * passed, or the client went away. Never throws: a timed-out wait answers the current resource.
 */
export function waitUntil(
  state: SimState,
  reply: FastifyReply,
  key: string,
  done: () => boolean,
  timeoutS: number,
): Promise<void> {
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      unwatch();
      timer.cancel();
      reply.raw.off('close', onClose);
      resolve();
    };
    const onClose = (): void => finish();
    const unwatch = state.watch(key, () => {
      if (done()) finish();
    });
    const timer = state.after(timeoutS * 1000, finish);
    // The response closes early only when the client went away (we have not answered yet).
    reply.raw.on('close', onClose);
  });
}

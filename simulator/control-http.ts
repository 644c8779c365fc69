// The control API over HTTP, outside /v1 and without an API key (a loopback test tool):
//
//   POST /_control/<operation>   body: a JSON array of arguments, or one object (one argument),
//                                or nothing; answers {data: <result>}
//   GET  /_control/<operation>   for reading operations (log, brands, uploads, credits,
//                                durations, edits); query parameters become one object argument,
//                                except uploads?brandId=… and edits?brandId=…
//
// <operation> is any method of SimulatorControl (seedBrand, seedLibrary, seedEdit, setCredits,
// ban, failNext, injectFault, setFaults, advance, log, issueUploadToken, …). In seedLibrary
// items, `contentBase64` stands for the bytes. Errors answer 400 {error: {code: CONTROL_ERROR}}.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimulatorControl } from './control.ts';
import { envelope } from './errors.ts';

const OPERATIONS = new Set([
  'advance',
  'seedBrand',
  'seedLibrary',
  'unlistLibraryItem',
  'seedEdit',
  'addWorkspace',
  'setCredits',
  'credits',
  'setEntitlements',
  'setAccount',
  'addApiKey',
  'ban',
  'unban',
  'nextBrandOutcome',
  'nextBetaOutcome',
  'nextExportOutcome',
  'nextImageOutcome',
  'finishBrand',
  'failNext',
  'setDurations',
  'durations',
  'setBetaZipMode',
  'setDuplicateDetection',
  'setBrandRecordNamesSkill',
  'cutDownloads',
  'replaceActiveSkill',
  'setFaults',
  'addFaults',
  'clearFaults',
  'injectFault',
  'setRateLimit',
  'log',
  'clearLog',
  'uploads',
  'brands',
  'edits',
  'issueUploadToken',
]);
const READS = new Set(['log', 'brands', 'uploads', 'credits', 'durations', 'edits']);

export function registerControlRoutes(app: FastifyInstance, control: SimulatorControl): void {
  const call = async (op: string, args: unknown[]): Promise<unknown> => {
    if (op === 'clock.now') return control.clock.now();
    if (!OPERATIONS.has(op)) throw new Error(`unknown control operation "${op}"`);
    if (op === 'seedLibrary') {
      const input = args[1] as { items?: Array<Record<string, unknown>> } | undefined;
      for (const item of input?.items ?? []) {
        if (typeof item.contentBase64 === 'string') {
          item.content = Buffer.from(item.contentBase64, 'base64');
          delete item.contentBase64;
        }
      }
    }
    const fn = (control as unknown as Record<string, (...a: unknown[]) => unknown>)[op] as (
      ...a: unknown[]
    ) => unknown;
    return fn.apply(control, args);
  };

  const answer = async (op: string, args: unknown[], reply: FastifyReply) => {
    try {
      const result = await call(op, args);
      return reply.send({ data: result ?? null });
    } catch (err) {
      return reply.code(400).send(envelope(400, 'CONTROL_ERROR', (err as Error).message));
    }
  };

  app.post<{ Params: { op: string } }>('/_control/:op', async (request, reply) => {
    const body = request.body;
    const args = body === undefined ? [] : Array.isArray(body) ? body : [body];
    return answer(request.params.op, args, reply);
  });

  app.get<{ Params: { op: string }; Querystring: Record<string, string> }>(
    '/_control/:op',
    async (request, reply) => {
      const { op } = request.params;
      if (op !== 'clock.now' && !READS.has(op)) {
        return reply
          .code(400)
          .send(envelope(400, 'CONTROL_ERROR', `"${op}" is not a reading operation; POST it`));
      }
      const q = { ...request.query };
      let args: unknown[];
      if (op === 'uploads' || op === 'edits') args = [q.brandId];
      else if (op === 'credits') args = [q.workspaceId ?? null];
      else if (op === 'log') {
        args = [{ ...q, ...(q.since !== undefined ? { since: Number(q.since) } : {}) }];
      } else args = [];
      return answer(op, args, reply);
    },
  );
}

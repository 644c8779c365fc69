// A service that hands out a hostile ZIP: a proxy in front of the simulator that forwards
// every API call, rewrites the simulator's file links to itself, and answers file downloads
// with the archive the test chose (or the simulator's own bytes while none is set).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Simulator } from '../../simulator/index.ts';

export interface HostileProxy {
  baseUrl: string;
  /** ZIP bytes served for every file download from now on (null: the simulator's). */
  serve(zip: Buffer | null): void;
  /** Downloads answered with the chosen bytes. */
  readonly served: number;
  close(): Promise<void>;
}

export async function startHostileProxy(sim: Simulator): Promise<HostileProxy> {
  let hostile: Buffer | null = null;
  let served = 0;
  let origin = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (hostile !== null && req.method === 'GET' && req.url?.startsWith('/files/')) {
        served++;
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': hostile.length });
        res.end(hostile);
        return;
      }
      void forward(req, Buffer.concat(chunks)).then(
        ({ status, headers, body }) => {
          const text = body.toString('utf8').split(sim.origin).join(origin);
          const rewritten = headers['content-type']?.includes('json') ? Buffer.from(text) : body;
          const { 'content-length': _, 'transfer-encoding': __, ...rest } = headers;
          res.writeHead(status, { ...rest, 'content-length': rewritten.length });
          res.end(rewritten);
        },
        () => res.destroy(),
      );
    });
  });
  const forward = (
    req: http.IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const { host: _, ...headers } = req.headers;
      const out = http.request(
        `${sim.origin}${req.url ?? '/'}`,
        { method: req.method, headers },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () =>
            resolve({
              status: answer.statusCode ?? 502,
              headers: answer.headers,
              body: Buffer.concat(parts),
            }),
          );
          answer.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: `${origin}/v1`,
    serve(zip) {
      hostile = zip;
    },
    get served() {
      return served;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

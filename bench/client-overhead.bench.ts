// The API client's overhead: N small GETs (GET /credits) through the client (transport, rate
// gate, retry bookkeeping, zod validation) against the same GETs through bare `fetch`, on
// the same simulator, measured in one run. The simulator runs in a child process so that
// its own work does not share the event loop with the side being measured.
// Target: the client reaches at least 0.8 of bare fetch's throughput.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { report } from './report.ts';

const KEY = 'sk-bench-client-overhead';

if (process.argv.includes('--serve')) {
  const { startSimulator } = await import('../simulator/index.ts');
  const sim = await startSimulator({ apiKeys: [KEY], rateLimit: false });
  process.stdout.write(`${sim.baseUrl}\n`);
  process.on('SIGTERM', () => void sim.close().then(() => process.exit(0)));
} else {
  await main();
}

async function main(): Promise<void> {
  const { createApiClient, RateGate } = await import('../main/engine/api/index.ts');
  const server = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0] as string);
    });
    server.on('exit', (code) => reject(new Error(`simulator exited (${code})`)));
  });

  try {
    const client = createApiClient({
      baseUrl,
      credentials: { kind: 'api-key', secret: KEY },
      rateGate: new RateGate(),
    });
    const viaClient = async (): Promise<void> => {
      await client.getCredits();
    };
    const viaFetch = async (): Promise<void> => {
      const response = await fetch(`${baseUrl}/credits`, { headers: { 'x-api-key': KEY } });
      if (!response.ok) throw new Error(`fetch answered ${response.status}`);
      await response.json();
    };

    const N = Number(process.env.BENCH_N ?? 2000);
    const ROUNDS = 5;
    const figures: Record<string, Record<string, number | boolean>> = {};
    for (const concurrency of [1, 8]) {
      // Warm both paths (connections, JIT) before measuring.
      await throughput(viaFetch, 200, concurrency);
      await throughput(viaClient, 200, concurrency);
      const fetchRates: number[] = [];
      const clientRates: number[] = [];
      // Alternating rounds, so that drift of the machine hits both sides alike.
      for (let round = 0; round < ROUNDS; round++) {
        fetchRates.push(await throughput(viaFetch, N, concurrency));
        clientRates.push(await throughput(viaClient, N, concurrency));
      }
      const fetchRps = median(fetchRates);
      const clientRps = median(clientRates);
      figures[`concurrency ${concurrency}`] = {
        'bare fetch req/s': fetchRps,
        'client req/s': clientRps,
        'client / fetch': clientRps / fetchRps,
        // CPU time per request beyond fetch's; negative when the client is the faster one.
        'client extra µs per request': (1e6 / clientRps - 1e6 / fetchRps) * concurrency,
        'meets 0.8 target': clientRps / fetchRps >= 0.8,
      };
    }
    report('client-overhead', { 'requests per round': N, rounds: ROUNDS, ...figures });
  } finally {
    server.kill('SIGTERM');
  }
}

/** Requests per second for `total` calls of `call`, `concurrency` at a time. */
async function throughput(
  call: () => Promise<void>,
  total: number,
  concurrency: number,
): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) await call();
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

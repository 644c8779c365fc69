// `simulator [--port N] [--api-key K] [--faults SPEC] [--seed N] [--speed X]`: the simulated
// Brand Asset Service alone, on 127.0.0.1, until SIGINT/SIGTERM.
import { InvalidArgumentError, type Command } from 'commander';
import { action, type CliDeps } from '../action.ts';
import { UsageError } from '../output.ts';

interface SimulatorOptions {
  port?: number;
  apiKey?: string;
  faults?: string;
  seed?: number;
  speed?: number;
}

export function registerSimulator(program: Command, deps: CliDeps): void {
  program
    .command('simulator')
    .description('run the simulated Brand Asset Service on 127.0.0.1 (prints its base URL)')
    // The default is said in words (0 means any free port), not also as commander's "(default: 0)".
    .option('--port <n>', 'port to listen on (default: any free port)', parsePort)
    .option('--api-key <key>', 'the API key it accepts (default: test-key)')
    .option('--faults <spec>', 'fault injection, e.g. "5xx=0.1;POST /v1/brands:reset-after=0.2"')
    .option('--seed <n>', 'seed of the generated data and faults', parseInteger)
    .option('--speed <x>', 'how much faster than real time simulated work runs', parseSpeed)
    .action(
      action(deps, async (ctx, command) => {
        const options = command.opts<SimulatorOptions>();
        // Loaded only here: no other command pays for the simulator's start-up.
        const { startSimulator } = await import('../../../../simulator/index.ts');
        let simulator;
        try {
          simulator = await startSimulator({
            port: options.port ?? 0,
            ...(options.apiKey !== undefined ? { apiKeys: [options.apiKey] } : {}),
            ...(options.faults !== undefined ? { faults: options.faults } : {}),
            ...(options.seed !== undefined ? { seed: options.seed } : {}),
            ...(options.speed !== undefined ? { speed: options.speed } : {}),
          });
        } catch (error) {
          const name = error instanceof Error ? error.name : '';
          if (name === 'FaultSpecError')
            throw new UsageError(`--faults: ${(error as Error).message}`);
          if ((error as { code?: string }).code === 'EADDRINUSE') {
            throw new UsageError(`--port ${options.port}: the port is already in use.`);
          }
          throw error;
        }
        ctx.output.result({ baseUrl: simulator.baseUrl }, () => simulator.baseUrl);
        ctx.output.note(
          `Simulator running at ${simulator.baseUrl}${options.apiKey === undefined ? ' (API key: test-key)' : ''}. Stop it with Ctrl-C.`,
        );
        if (!ctx.signal.aborted) {
          await new Promise((resolve) =>
            ctx.signal.addEventListener('abort', resolve, { once: true }),
          );
        }
        await simulator.close();
        ctx.output.note('Simulator stopped.');
      }),
    );
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535)
    throw new InvalidArgumentError('must be a port number from 0 to 65535');
  return n;
}

function parseInteger(value: string): number {
  if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

function parseSpeed(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError('must be a number above 0');
  return n;
}

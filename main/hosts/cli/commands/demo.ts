// `demo`: the bundled simulator with sample brands, the engine and the window: works on a
// fresh machine with no account. Its data dir and sync root are its own (next to the real
// ones, never the real ones) unless --data-dir / --root say otherwise. It prints the window's
// URL first, then how to reach the same demo from another terminal; a second demo on the
// same folders says where the first one runs instead of starting.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Command } from 'commander';
import { action, type CliDeps } from '../action.ts';
import type { GlobalOptions } from '../context.ts';
import { CommandFailure } from '../output.ts';
import { DEFAULT_PORT, parsePort, runWindowHost } from '../window-host.ts';
import { claimDemoLock } from '../demo-lock.ts';

export function registerDemo(program: Command, deps: CliDeps): void {
  program
    .command('demo')
    .description(
      'the bundled simulator with sample brands, the engine and the window: no account needed',
    )
    .option(
      '--port <n>',
      `the window's port (0: any free one; default ${DEFAULT_PORT}, or a free one when taken)`,
    )
    .option('--open', 'open the window in the default browser')
    .action(
      action(deps, async (ctx, command) => {
        const options = command.opts<{ port?: string; open?: boolean }>();
        const port = parsePort(options.port);
        const given = command.optsWithGlobals<GlobalOptions>();
        const dataDir = path.resolve(given.dataDir ?? path.join(ctx.config.dataDir, 'demo'));
        const root = path.resolve(given.root ?? `${ctx.config.root} Demo`);
        const lock = claimDemoLock(dataDir);
        if (!lock.claimed) {
          throw new CommandFailure(
            'DEMO_RUNNING',
            `a demo is already running on these folders (process ${lock.holder.pid}): open ${lock.holder.url ?? 'its URL'}, or stop it first.`,
          );
        }
        // Loaded only here: no other command pays for the simulator's start-up.
        const { startSimulator } = await import('../../../../simulator/index.ts');
        // A key made for this run of the local simulator only; it opens nothing else.
        const apiKey = `demo-${randomBytes(16).toString('hex')}`;
        const simulator = await startSimulator({ apiKeys: [apiKey], demo: true });
        try {
          await runWindowHost(ctx, {
            port,
            open: options.open === true,
            runtime: {
              dataDir,
              root,
              baseUrl: simulator.baseUrl,
              credentials: { kind: 'api-key', secret: apiKey, source: 'demo' },
              signal: ctx.signal,
            },
            after: () => [
              `Demo: sample brands from the simulator at ${simulator.baseUrl}, synced into ${root}.`,
              'Drop PNG, JPEG, WebP or AVIF images into a brand folder to upload them.',
              'From another terminal, the command line reaches this demo with:',
              `  export BRAND_SYNC_BASE_URL=${simulator.baseUrl} BRAND_SYNC_DATA_DIR=${shellQuote(dataDir)} BRAND_SYNC_ROOT=${shellQuote(root)} BRAND_SYNC_API_KEY=${apiKey}`,
              '  npx brand-sync status',
            ],
            started: (url) => lock.publish(url),
          });
        } finally {
          lock.release();
          await simulator.close();
        }
      }),
    );
}

/** A path as one shell word, quoted only when it needs it. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

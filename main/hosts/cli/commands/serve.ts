// `serve [--port N] [--open]`: the engine and the window on 127.0.0.1, for a browser on this
// machine and for scripts (the bridge is an HTTP API: README). Signed in with the key of
// `login` (or BRAND_SYNC_API_KEY); without one, the window asks for it.
import type { Command } from 'commander';
import { action, type CliDeps } from '../action.ts';
import { credentialsFrom, ENV, type GlobalOptions } from '../context.ts';
import { DEFAULT_PORT, parsePort, runWindowHost } from '../window-host.ts';

export function registerServe(program: Command, deps: CliDeps): void {
  program
    .command('serve')
    .description('the engine and the window on 127.0.0.1; prints the URL to open')
    .option(
      '--port <n>',
      `the port (0: any free one; default ${DEFAULT_PORT}, or a free one when taken)`,
    )
    .option('--open', 'open the URL in the default browser')
    .action(
      action(deps, async (ctx, command) => {
        const options = command.opts<{ port?: string; open?: boolean }>();
        const given = command.optsWithGlobals<GlobalOptions>();
        const credentials = credentialsFrom(deps.env);
        await runWindowHost(ctx, {
          port: parsePort(options.port),
          open: options.open === true,
          runtime: {
            dataDir: ctx.config.dataDir,
            ...((given.root ?? deps.env[ENV.root]) ? { root: ctx.config.root } : {}),
            ...(ctx.config.baseUrl ? { baseUrl: ctx.config.baseUrl } : {}),
            ...(credentials
              ? { credentials: { ...credentials, source: 'environment' as const } }
              : {}),
            signal: ctx.signal,
          },
        });
      }),
    );
}

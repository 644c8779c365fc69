// `demo`: the bundled simulator with sample brands, and the engine syncing them into demo
// folders: works on a fresh machine with no account. Its data dir and sync root are its own
// (next to the real ones, never the real ones) unless --data-dir / --root say otherwise.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Command } from 'commander';
import { action, type CliDeps } from '../action.ts';
import { followActivity, untilAborted } from '../activity-feed.ts';
import type { GlobalOptions } from '../context.ts';
import { Engine } from '../../engine/engine.ts';
import { defaultFeatures } from '../../engine/features.ts';
import { createApiClient } from '../../engine/api/index.ts';

export function registerDemo(program: Command, deps: CliDeps): void {
  program
    .command('demo')
    .description('the bundled simulator with sample brands and the engine: no account needed')
    .action(
      action(deps, async (ctx, command) => {
        const given = command.optsWithGlobals<GlobalOptions>();
        const dataDir = given.dataDir ?? path.join(ctx.config.dataDir, 'demo');
        const root = given.root ?? `${ctx.config.root} Demo`;
        // Loaded only here: no other command pays for the simulator's start-up.
        const { startSimulator } = await import('../../../simulator/index.ts');
        // A key made for this run only, handed over in memory: never an argument or a file.
        const apiKey = `demo-${randomBytes(16).toString('hex')}`;
        ctx.output.addSecret(apiKey);
        const simulator = await startSimulator({ apiKeys: [apiKey], demo: true });
        let engine: Engine | undefined;
        try {
          engine = Engine.open({
            dataDir,
            root,
            client: createApiClient({
              baseUrl: simulator.baseUrl,
              credentials: { kind: 'api-key', secret: apiKey },
              signal: ctx.signal,
            }),
            features: defaultFeatures,
          });
          const stopFeed = followActivity(engine, ctx.output);
          ctx.output.result({ baseUrl: simulator.baseUrl, root, dataDir }, () => [
            `Demo running against the simulator at ${simulator.baseUrl}.`,
            `Brand folders: ${root}`,
            'Drop PNG, JPEG, WebP or AVIF images into a brand folder to upload them; Ctrl-C stops.',
            'The window comes with the desktop host; this is the engine without UI.',
          ]);
          await engine.start();
          await untilAborted(ctx.signal);
          stopFeed();
        } finally {
          await engine?.close();
          await simulator.close();
        }
        ctx.output.note('Demo stopped.');
      }),
    );
}

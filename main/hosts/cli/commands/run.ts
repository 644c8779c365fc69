// `run`: the engine without a UI: it watches the brand folders and works through the queue
// until SIGINT or SIGTERM, then shuts down cleanly: running jobs go back to the queue (an
// interrupted upload is sent again at the next start), nothing is lost.
import type { Command } from 'commander';
import { action, type CliDeps } from '../action.ts';
import { openEngine } from '../engine.ts';
import { IdleMemoryRelease } from '../idle-memory.ts';
import { EXIT } from '../output.ts';
import { followRun } from '../run-feed.ts';

export function registerRun(program: Command, deps: CliDeps): void {
  program
    .command('run')
    .description('watch the brand folders and sync until stopped (Ctrl-C, SIGTERM)')
    .option('--json', 'one JSON object per line on stdout for each file and wait')
    .action(
      action(deps, async (ctx) => {
        const engine = openEngine(ctx);
        // An idle engine gives back what a burst of work made the heap and caches grow to.
        const memory = new IdleMemoryRelease({
          releaseCaches: () => engine.store.db.raw.pragma('shrink_memory'),
        });
        const time = (): string => new Date().toTimeString().slice(0, 8);
        const stopFeed = followRun(
          engine,
          { event: (doc, line) => ctx.output.event(doc, `${time()} ${line}`) },
          ctx.output.json,
        );
        try {
          await engine.start();
          memory.start();
          ctx.output.event(
            { type: 'running', at: new Date().toISOString(), root: engine.root },
            `Brand Sync is running: watching ${engine.root}. Stop it with Ctrl-C (or SIGTERM).`,
          );
          await new Promise<void>((resolve) => {
            if (ctx.signal.aborted) return resolve();
            ctx.signal.addEventListener('abort', () => resolve(), { once: true });
          });
          ctx.output.note('Stopping: running jobs go back to the queue…');
        } finally {
          stopFeed();
          memory.stop();
          await engine.close();
        }
        ctx.output.event({ type: 'stopped', at: new Date().toISOString() }, 'Stopped.');
        return EXIT.ok;
      }),
    );
}

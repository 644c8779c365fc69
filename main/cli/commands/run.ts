// `run`: the engine without a UI: it watches the brand folders and works through the queue
// until SIGINT or SIGTERM, then shuts down cleanly: running jobs go back to the queue (an
// interrupted upload is sent again at the next start), nothing is lost.
import type { Command } from 'commander';
import { action, type CliDeps } from '../action.ts';
import { openEngine } from '../engine.ts';
import { IdleMemoryRelease } from '../idle-memory.ts';
import { EXIT } from '../output.ts';

export function registerRun(program: Command, deps: CliDeps): void {
  program
    .command('run')
    .description('watch the brand folders and sync until stopped (Ctrl-C, SIGTERM)')
    .action(
      action(deps, async (ctx) => {
        const engine = openEngine(ctx);
        // An idle engine gives back what a burst of work made the heap and caches grow to.
        const memory = new IdleMemoryRelease({
          releaseCaches: () => engine.store.db.raw.pragma('shrink_memory'),
        });
        try {
          await engine.start();
          memory.start();
          ctx.output.note(
            `Brand Sync is running: watching ${engine.root}. Stop it with Ctrl-C (or SIGTERM).`,
          );
          await new Promise<void>((resolve) => {
            if (ctx.signal.aborted) return resolve();
            ctx.signal.addEventListener('abort', () => resolve(), { once: true });
          });
          ctx.output.note('Stopping: running jobs go back to the queue…');
        } finally {
          memory.stop();
          await engine.close();
        }
        ctx.output.note('Stopped.');
        return EXIT.ok;
      }),
    );
}

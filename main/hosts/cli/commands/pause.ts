// `pause` and `resume`: the user's pause of all syncing, kept in the store (a restart stays
// paused) and said in the activity log; a running engine (`run`, `serve`, the app) follows
// within seconds. Works without a key and offline: it only records the wish.
import type { Command } from 'commander';
import { action, type CliDeps } from '../action.ts';
import { recordPause } from '../../../engine/core/pause.ts';
import { openStore } from '../../../engine/store/index.ts';

export function registerPause(program: Command, deps: CliDeps): void {
  for (const paused of [true, false]) {
    program
      .command(paused ? 'pause' : 'resume')
      .description(
        paused
          ? 'stop taking new work (kept across restarts; running transfers finish)'
          : 'take work again after a pause',
      )
      .option('--json', 'print one JSON document')
      .action(
        action(deps, async (ctx) => {
          const store = openStore({ dataDir: ctx.config.dataDir });
          try {
            const changed = recordPause(
              store,
              paused,
              '`brand-sync ' + (paused ? 'pause`' : 'resume`'),
            );
            ctx.output.result({ paused, changed }, () =>
              paused
                ? changed
                  ? 'Paused: no new work starts until `brand-sync resume` (a running engine follows within seconds).'
                  : 'Already paused.'
                : changed
                  ? 'Resumed: syncing goes on.'
                  : 'Not paused: nothing to resume.',
            );
          } finally {
            store.close();
          }
        }),
      );
  }
}

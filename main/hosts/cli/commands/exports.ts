// `exports sync BRAND [--json]`: bring the brand's latest Brand Skill to disk now, through
// the same durable job the engine runs. Exit 0 when it is on disk (installed or already up
// to date) or the brand has nothing to export yet; 1 when the sync failed.
import type { Command } from 'commander';
import {
  exportSyncKey,
  exportSyncKind,
  type ExportSyncResult,
} from '../../../engine/export-sync/index.ts';
import { runJobNow, type JobRunOutcome } from '../../../engine/queue/index.ts';
import { action, type CliDeps } from '../action.ts';
import type { CliContext } from '../context.ts';
import { withEngine } from '../engine.ts';
import { CommandFailure, EXIT, fields, type ExitCode } from '../output.ts';
import { lookupIn } from '../resolve.ts';

export function registerExports(program: Command, deps: CliDeps): void {
  const exportsCommand = program.command('exports').description('Brand Skill exports');
  exportsCommand
    .command('sync')
    .description("bring the brand's latest Brand Skill to disk now")
    .argument('<brand>', 'the brand ID or the name of its folder')
    .option('--json', 'print one JSON document')
    .action(action(deps, syncExport));
}

async function syncExport(ctx: CliContext, command: Command): Promise<ExitCode> {
  const arg = command.processedArgs[0] as string;
  return withEngine(ctx, async (engine) => {
    const brandId = lookupIn(engine.store, arg);
    ctx.output.note(`Bringing the Brand Skill of ${arg} to disk…`);
    const outcome = await runJobNow(
      engine.queue,
      exportSyncKind,
      { brandId, reason: 'cli' },
      exportSyncKey(brandId),
      { signal: ctx.signal },
    );
    const result = resultOf(outcome) as ExportSyncResult;
    ctx.output.result(result, () =>
      [result.message, ''].concat(
        fields([
          ['Brand', `${result.brandName} (${result.brandId})`],
          ['Outcome', result.outcome],
          ['Skill', result.skillId],
          ['Folder', result.path],
          ['Files', result.files],
        ]),
      ),
    );
    return EXIT.ok;
  });
}

/** The job's result when it was done; every other end is a CommandFailure (exit 1). */
export function resultOf(outcome: JobRunOutcome): unknown {
  switch (outcome.state) {
    case 'done':
      return outcome.job.result;
    case 'failed':
      throw new CommandFailure(outcome.error.code, outcome.error.message, outcome.error.data);
    case 'cancelled':
      throw new CommandFailure('CANCELLED', 'the job was cancelled before it finished');
    case 'halted':
      throw new CommandFailure(outcome.code, outcome.message);
  }
}

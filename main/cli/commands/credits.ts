// `credits [--workspace ID] [--json]`: the credit balance of the personal or a team workspace.
import type { Command } from 'commander';
import { action, type CliDeps } from '../action.ts';

interface CreditsOptions {
  workspace?: string;
}

export function registerCredits(program: Command, deps: CliDeps): void {
  program
    .command('credits')
    .description('show the credit balance of your personal workspace or a team workspace')
    .option('--workspace <id>', 'a team workspace ID (default: your personal workspace)')
    .option('--json', 'print one JSON document')
    .action(
      action(deps, async (ctx, command) => {
        const { workspace } = command.opts<CreditsOptions>();
        const credits = await ctx
          .client()
          .getCredits({ workspaceId: workspace }, { signal: ctx.signal });
        const where = workspace ? `workspace ${workspace}` : 'your personal workspace';
        ctx.output.result(
          {
            workspaceId: workspace ?? null,
            balance: credits.balance,
            unlimited: credits.unlimited,
          },
          () =>
            credits.unlimited
              ? `Credits of ${where}: unlimited`
              : `Credits of ${where}: ${formatNumber(credits.balance)}`,
        );
      }),
    );
}

function formatNumber(n: number): string {
  return Number.isInteger(n)
    ? n.toLocaleString('en-US')
    : n.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

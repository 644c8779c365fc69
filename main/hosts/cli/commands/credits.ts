// `credits [--workspace ID] [--json]`: the credit balance of one workspace, or of the personal
// workspace and every team workspace the account has (GET /workspaces, an assumed endpoint:
// where the service lacks it, the personal workspace alone).
import { workspaceIdProblem } from '../../../engine/account/workspace-id.ts';
import type { Command } from 'commander';
import { isApiError, type ApiClient, type Workspace } from '../../../engine/api/index.ts';
import { action, type CliDeps } from '../action.ts';
import { UsageError } from '../output.ts';
import type { CliContext } from '../context.ts';

interface CreditsOptions {
  workspace?: string;
}

export function registerCredits(program: Command, deps: CliDeps): void {
  program
    .command('credits')
    .description('show the credit balance of your workspaces (personal and team), or of one')
    .option('--workspace <id>', 'one team workspace ID (default: every workspace you have)')
    .option('--json', 'print one JSON document')
    .action(
      action(deps, async (ctx, command) => {
        const { workspace } = command.opts<CreditsOptions>();
        if (workspace !== undefined) return oneWorkspace(ctx, workspace);
        return everyWorkspace(ctx);
      }),
    );
}

async function oneWorkspace(ctx: CliContext, workspace: string): Promise<void> {
  const problem = workspaceIdProblem(workspace);
  if (problem !== null) throw new UsageError(problem);
  // 404 WORKSPACE_NOT_FOUND stands as it is: its hint says the workspace does not exist or is not yours.
  const credits = await ctx.client().getCredits({ workspaceId: workspace }, { signal: ctx.signal });
  ctx.output.result(
    { workspaceId: workspace, balance: credits.balance, unlimited: credits.unlimited },
    () => `Credits of workspace ${workspace}: ${amount(credits)}`,
  );
}

interface WorkspaceCredits {
  workspaceId: string | null;
  name: string | null;
  personal: boolean;
  balance: number | null;
  unlimited: boolean | null;
  /** Why the balance is missing (a team workspace no longer accessible). */
  error: { code: string; message: string } | null;
}

async function everyWorkspace(ctx: CliContext): Promise<void> {
  const client = ctx.client();
  const workspaces = await workspacesOf(client, ctx.signal);
  const rows: WorkspaceCredits[] = [];
  for (const w of workspaces) {
    const personal = w.id === null || w.is_personal === true;
    const base = { workspaceId: w.id, name: w.name || null, personal };
    try {
      const c = await client.getCredits({ workspaceId: w.id }, { signal: ctx.signal });
      rows.push({ ...base, balance: c.balance, unlimited: c.unlimited, error: null });
    } catch (error) {
      // One team workspace out of reach does not hide the others.
      if (!(isApiError(error) && error.code === 'WORKSPACE_NOT_FOUND' && w.id !== null))
        throw error;
      rows.push({
        ...base,
        balance: null,
        unlimited: null,
        error: { code: error.code, message: 'not found, or no longer accessible to you' },
      });
    }
  }
  ctx.output.result({ workspaces: rows }, () =>
    rows.map((r) => {
      const where = r.personal
        ? 'your personal workspace'
        : `workspace ${r.name ? `${r.name} (${r.workspaceId})` : r.workspaceId}`;
      const value =
        r.balance === null
          ? `unavailable (${r.error?.message ?? 'unknown'})`
          : amount({ balance: r.balance, unlimited: r.unlimited });
      return `Credits of ${where}: ${value}`;
    }),
  );
}

/** The account's workspaces, personal first; only the personal one when the service has no list. */
async function workspacesOf(client: ApiClient, signal: AbortSignal): Promise<Workspace[]> {
  let list: Workspace[];
  try {
    list = await client.listWorkspaces({ signal });
  } catch (error) {
    if (!(isApiError(error) && error.featureUnavailable)) throw error;
    list = [];
  }
  const personal = list.filter((w) => w.id === null);
  const teams = list.filter((w) => w.id !== null);
  return [
    ...(personal.length > 0 ? personal : [{ id: null, name: 'Personal', is_personal: true }]),
    ...teams,
  ];
}

function amount(credits: { balance: number; unlimited: boolean | null }): string {
  return credits.unlimited ? 'unlimited' : formatNumber(credits.balance);
}

function formatNumber(n: number): string {
  return Number.isInteger(n)
    ? n.toLocaleString('en-US')
    : n.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

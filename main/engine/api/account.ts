// Credits (documented), workspaces and account (assumed, docs/service.md).
import { ACCOUNT_PATH, WORKSPACES_PATH } from './assumed.ts';
import type { Http } from './http.ts';
import { invalidInput } from './input.ts';
import { Account, CreditBalance, WorkspaceList, type Workspace } from './schemas.ts';
import type { CallOptions } from './brands.ts';

/** The balance of the personal workspace, or of the team workspace `workspaceId`. */
export async function getCredits(
  http: Http,
  query: { workspaceId?: string | null } = {},
  options: CallOptions = {},
): Promise<CreditBalance> {
  const endpoint = 'GET /credits';
  if (
    query.workspaceId !== undefined &&
    query.workspaceId !== null &&
    query.workspaceId.trim() === ''
  ) {
    throw invalidInput(endpoint, 'workspace ID must not be empty.');
  }
  return http.call({
    method: 'GET',
    endpoint,
    path: '/credits',
    query: { workspaceId: query.workspaceId ?? undefined },
    schema: CreditBalance,
    resend: 'resend',
    signal: options.signal,
  });
}

/** Workspaces of the caller, personal first (its id is null). */
export async function listWorkspaces(http: Http, options: CallOptions = {}): Promise<Workspace[]> {
  const list = await http.call({
    method: 'GET',
    endpoint: `GET ${WORKSPACES_PATH}`,
    path: WORKSPACES_PATH,
    schema: WorkspaceList,
    resend: 'resend',
    assumedFeature: 'a list of workspaces',
    signal: options.signal,
  });
  return list.workspaces;
}

export async function getAccount(http: Http, options: CallOptions = {}): Promise<Account> {
  return http.call({
    method: 'GET',
    endpoint: `GET ${ACCOUNT_PATH}`,
    path: ACCOUNT_PATH,
    schema: Account,
    resend: 'resend',
    assumedFeature: 'account details',
    signal: options.signal,
  });
}

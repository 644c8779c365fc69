// Workspaces and their credit balances, refreshed as one job. Workspaces come from an
// assumed endpoint (docs/service.md): where the service lacks it, only the personal workspace is known.
import { z } from 'zod';
import type { ApiClient } from '../api/index.ts';
import { isApiError } from '../api/index.ts';
import type { JobQueue } from '../queue/index.ts';
import type { Store, WorkspaceInput } from '../store/index.ts';
import type { TypedEmitter } from '../queue/index.ts';
import type { EngineEvents } from '../core/engine-events.ts';

export const refreshAccountKind = 'refresh-account';

export interface AccountRefreshDeps {
  store: Store;
  client: ApiClient;
  queue: JobQueue;
  events: TypedEmitter<EngineEvents>;
}

export function registerAccountRefresh(deps: AccountRefreshDeps) {
  const { store, client, events } = deps;
  return deps.queue.register(refreshAccountKind, {
    payload: z.object({}),
    concurrency: 1,
    async run(_job, ctx) {
      let workspaces: WorkspaceInput[];
      try {
        // The personal workspace is `workspaceId: null` (the interface's convention), even when
        // the service lists it with an ID of its own: one row, asked for without an ID.
        let personalSeen = false;
        workspaces = [];
        for (const w of await client.listWorkspaces({ signal: ctx.signal })) {
          const isPersonal = w.is_personal ?? w.id === null;
          if (isPersonal && personalSeen) continue;
          personalSeen ||= isPersonal;
          workspaces.push({ ...w, id: isPersonal ? null : w.id, isPersonal });
        }
      } catch (error) {
        if (!isApiError(error) || !error.featureUnavailable) throw error;
        workspaces = [{ id: null, name: null, isPersonal: true }];
      }
      if (!workspaces.some((w) => w.id === null)) {
        workspaces.unshift({ id: null, name: null, isPersonal: true });
      }
      store.transaction(() => store.workspaces.replaceAll(workspaces));
      store.syncState.markSynced('workspaces', '');
      for (const workspace of workspaces) {
        try {
          const balance = await client.getCredits(
            { workspaceId: workspace.id },
            { signal: ctx.signal },
          );
          store.workspaces.setCredits(workspace.id, balance);
        } catch (error) {
          // A team workspace we may no longer reach is reported, not fatal to the others.
          if (isApiError(error) && error.code === 'WORKSPACE_NOT_FOUND' && workspace.id !== null) {
            events.emit('notice', {
              level: 'warn',
              code: error.code,
              message: `Credits of workspace ${workspace.name ?? workspace.id} are not available: it does not exist or you no longer have access to it.`,
            });
            continue;
          }
          throw error;
        }
      }
      return { workspaces: workspaces.length };
    },
  });
}

// GET /credits (document), GET /workspaces and GET /account (docs/service.md, REST ref).
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.ts';
import { queryString } from '../validate.ts';

export function registerAccountRoutes(app: FastifyInstance, ctx: SimContext): void {
  const { state } = ctx;

  app.get('/v1/credits', async (request) => {
    const workspaceId = state.requireWorkspace(
      queryString(request.query as Record<string, unknown>, 'workspaceId'),
    );
    const c = state.creditsOf(workspaceId);
    return { data: { balance: c.balance, unlimited: c.unlimited } };
  });

  // assumed: not in the interface document (docs/service.md "Workspaces and account").
  app.get('/v1/workspaces', async () => {
    const teams = [...state.workspaces.values()].filter((w) => w.accessible);
    return {
      data: {
        workspaces: [
          { id: null, name: state.workspaceName(null), is_personal: true },
          ...teams.map((w) => ({ id: w.id, name: w.name, is_personal: false })),
        ],
      },
    };
  });

  // assumed: not in the interface document (docs/service.md "Workspaces and account").
  app.get('/v1/account', async () => ({
    data: { email: state.account.email, name: state.account.name },
  }));
}

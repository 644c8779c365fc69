// Brand Edits: apply and discard (document), list and get with wait (docs/service.md, assumed).
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.ts';
import { pageBySeq } from '../cursor.ts';
import { SimError } from '../errors.ts';
import { waitUntil } from '../http-util.ts';
import type { Brand, Edit } from '../model.ts';
import type { SimState } from '../state.ts';
import { isUuid, queryInt, queryString, waitParams } from '../validate.ts';
import { editView } from '../views.ts';
import { answerEdit, applyEdit, discardEdit, type EditAnswer } from '../work/edits.ts';
import { brandOr404 } from './brands.ts';

type EditParams = { id: string; editId: string };

function editOr404(state: SimState, brand: Brand, editId: string): Edit {
  const edit = isUuid(editId) ? state.edits.get(editId) : undefined;
  if (!edit || edit.brandId !== brand.id)
    throw new SimError(404, 'BRAND_EDIT_NOT_FOUND', 'brand edit not found');
  return edit;
}

export function registerEditRoutes(app: FastifyInstance, ctx: SimContext): void {
  const { state } = ctx;

  app.post<{ Params: EditParams }>('/v1/brands/:id/edits/:editId/apply', async (request) => {
    const brand = brandOr404(state, request.params.id);
    return {
      data: editView(
        state,
        applyEdit(state, brand, editOr404(state, brand, request.params.editId)),
      ),
    };
  });

  app.post<{ Params: EditParams }>('/v1/brands/:id/edits/:editId/discard', async (request) => {
    const brand = brandOr404(state, request.params.id);
    return {
      data: editView(state, discardEdit(state, editOr404(state, brand, request.params.editId))),
    };
  });

  // assumed: not in the interface document (ours): the answer to an edit's question.
  app.post<{ Params: EditParams; Body: EditAnswer }>(
    '/v1/brands/:id/edits/:editId/answer',
    async (request) => {
      const brand = brandOr404(state, request.params.id);
      const edit = editOr404(state, brand, request.params.editId);
      const body = (request.body ?? {}) as EditAnswer;
      return { data: editView(state, answerEdit(state, edit, body)) };
    },
  );

  // assumed: not in the interface document (docs/service.md "Listing Brand Edits").
  app.get<{ Params: { id: string } }>('/v1/brands/:id/edits', async (request) => {
    const brand = brandOr404(state, request.params.id);
    const q = request.query as Record<string, unknown>;
    const limit = queryInt(q, 'limit', 1, 100, 50);
    const edits = [...state.edits.values()].filter((e) => e.brandId === brand.id);
    const { page, nextCursor, hasMore } = pageBySeq(
      edits,
      `edits:${brand.id}`,
      queryString(q, 'cursor'),
      limit,
    );
    return { data: { items: page.map((e) => editView(state, e)), nextCursor, hasMore } };
  });

  // assumed: not in the interface document (docs/service.md "Listing Brand Edits").
  app.get<{ Params: EditParams }>('/v1/brands/:id/edits/:editId', async (request, reply) => {
    const { wait, timeoutS } = waitParams(request.query as Record<string, unknown>);
    const brand = brandOr404(state, request.params.id);
    const edit = editOr404(state, brand, request.params.editId);
    if (wait)
      await waitUntil(state, reply, `edit:${edit.id}`, () => edit.status !== 'preparing', timeoutS);
    return { data: editView(state, edit) };
  });
}

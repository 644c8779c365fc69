// What the user does with Brand Edits: list, look at, apply, discard. The store keeps each
// edit as the service last showed it. Apply changes the active Skill, so it tells the engine
// (`brand:skill-changed`), and the export sync brings the new Skill to disk; a stale edit
// (the brand changed meanwhile) means the Skill on disk may be behind too.
import { isApiError } from '../api/index.ts';
import type { ApiClient, ApiError, BrandEdit } from '../api/index.ts';
import { BrandEdit as BrandEditSchema } from '../api/schemas.ts';
import type { EngineEvents } from '../core/engine-events.ts';
import type { TypedEmitter } from '../queue/index.ts';
import type { Store } from '../store/index.ts';
import { brandDisplayName } from '../store/brands-repo.ts';
import { describeEditState } from './edit-doc.ts';

export interface EditDeps {
  store: Store;
  client: ApiClient;
  events: TypedEmitter<EngineEvents>;
}

/** An edit action the service refused for a reason phrased here; `data` is the service's. */
export class EditActionError extends Error {
  readonly code: string;
  readonly data: unknown;
  constructor(code: string, message: string, data?: unknown) {
    super(message);
    this.name = 'EditActionError';
    this.code = code;
    this.data = data;
  }
}

export const EDITS_UNAVAILABLE_MESSAGE =
  'This service does not offer a list of Brand Edits (its edits endpoint is missing). Edits you know the ID of can still be applied or discarded.';

function unavailable(error: unknown): EditActionError | undefined {
  return isApiError(error) && error.featureUnavailable
    ? new EditActionError('FEATURE_UNAVAILABLE', EDITS_UNAVAILABLE_MESSAGE)
    : undefined;
}

/** Every edit of the brand from the service, stored in place of the ones stored before. */
export async function refreshEdits(
  deps: Pick<EditDeps, 'store' | 'client'>,
  brandId: string,
  signal?: AbortSignal,
): Promise<BrandEdit[]> {
  const edits: BrandEdit[] = [];
  for await (const edit of deps.client.edits(brandId, {}, { signal })) edits.push(edit);
  await knowBrand(deps, brandId, signal);
  deps.store.edits.replaceForBrand(brandId, edits);
  return edits;
}

export interface EditListing {
  edits: BrandEdit[];
  /** 'service': listed now; 'store': the service could not be reached, as last synced. */
  source: 'service' | 'store';
  syncedAt: number | null;
}

/** The brand's edits: from the service, or (offline) as last stored. */
export async function listEdits(
  deps: Pick<EditDeps, 'store' | 'client'>,
  brandId: string,
  signal?: AbortSignal,
): Promise<EditListing> {
  try {
    return { edits: await refreshEdits(deps, brandId, signal), source: 'service', syncedAt: null };
  } catch (error) {
    const hidden = unavailable(error);
    if (hidden) throw hidden;
    if (!isApiError(error) || error.kind !== 'network') throw error;
    const stored = deps.store.edits.list(brandId);
    if (stored.length === 0) throw error;
    return {
      edits: stored.map((s) => storedEdit(s.raw, s.id)),
      source: 'store',
      syncedAt: Math.min(...stored.map((s) => s.syncedAt)),
    };
  }
}

/** One edit from the service (stored); the stored copy when the service has no such endpoint or is unreachable. */
export async function showEdit(
  deps: Pick<EditDeps, 'store' | 'client'>,
  brandId: string,
  editId: string,
  signal?: AbortSignal,
): Promise<{ edit: BrandEdit; source: 'service' | 'store' }> {
  try {
    const edit = await deps.client.getEdit(brandId, editId, { signal });
    await knowBrand(deps, brandId, signal);
    deps.store.edits.upsert(brandId, edit);
    return { edit, source: 'service' };
  } catch (error) {
    const stored = deps.store.edits.get(brandId, editId.toLowerCase());
    const fallBack = isApiError(error) && (error.featureUnavailable || error.kind === 'network');
    if (stored !== undefined && fallBack) {
      return { edit: storedEdit(stored.raw, stored.id), source: 'store' };
    }
    throw unavailable(error) ?? error;
  }
}

/**
 * Applies the edit: its candidate becomes the active Brand. Success and a stale edit both
 * announce `brand:skill-changed` (a new active Skill, or one that moved meanwhile).
 */
export async function applyEdit(
  deps: EditDeps,
  brandId: string,
  editId: string,
  signal?: AbortSignal,
): Promise<BrandEdit> {
  const edit = await decide(deps, 'apply', brandId, editId, signal);
  // The brand's new active Skill is read before the faces are told (the order they knew).
  await recordEdit(deps, brandId, edit, signal, () => activeSkillNow(deps, brandId, edit, signal));
  deps.events.emit('brand:skill-changed', { brandId, reason: 'edit-applied' });
  // Activity's "Done" says it in words: the person's own act, not a status seen later.
  const brand = deps.store.brands.get(brandId);
  deps.events.emit('notice', {
    level: 'info',
    code: 'BRAND_EDIT_APPLIED',
    brandId,
    message: `Edit applied to ${brand ? brandDisplayName(brand) : 'the brand'}: ${edit.changeSummary ?? 'a Brand Edit'}.`,
  });
  return edit;
}

/** Discards the edit; the active Brand is unchanged. */
export async function discardEdit(
  deps: EditDeps,
  brandId: string,
  editId: string,
  signal?: AbortSignal,
): Promise<BrandEdit> {
  const edit = await decide(deps, 'discard', brandId, editId, signal);
  await recordEdit(deps, brandId, edit, signal);
  return edit;
}

/** Sends apply or discard; the service's refusals become the engine's own errors, in words. */
async function decide(
  deps: EditDeps,
  action: 'apply' | 'discard',
  brandId: string,
  editId: string,
  signal: AbortSignal | undefined,
): Promise<BrandEdit> {
  try {
    return action === 'apply'
      ? await deps.client.applyEdit(brandId, editId, { signal })
      : await deps.client.discardEdit(brandId, editId, { signal });
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (action === 'apply' && error.code === 'BRAND_EDIT_STALE') {
      throw await staleEdit(deps, brandId, editId, error, signal);
    }
    if (error.code === 'BRAND_EDIT_STATE_CONFLICT') {
      throw await stateConflict(deps, action, brandId, editId, error, signal);
    }
    throw error;
  }
}

export interface EditAnswer {
  interactionId: string;
  text?: string;
  imageIds?: string[];
  sources?: string[];
}

/** Answers the question an edit asks; the edit prepares again and the engine follows it. */
export async function answerEdit(
  deps: EditDeps,
  brandId: string,
  editId: string,
  answer: EditAnswer,
  signal?: AbortSignal,
): Promise<BrandEdit> {
  const edit = await deps.client.answerEdit(brandId, editId, answer, { signal });
  await recordEdit(deps, brandId, edit, signal);
  return edit;
}

/**
 * The brand's record after an apply: its active Skill is the edit's candidate now. Read from
 * the service (else the page would keep saying a newer Brand Skill is on the service once
 * the new one is installed); the edit's target stands in when the service cannot be asked.
 */
async function activeSkillNow(
  deps: EditDeps,
  brandId: string,
  edit: BrandEdit,
  signal: AbortSignal | undefined,
): Promise<void> {
  try {
    const brand = deps.store.brands.upsertFromService(
      await deps.client.getBrand(brandId, { signal }),
    );
    deps.events.emit('brand:updated', { brand });
  } catch {
    const target = edit.target?.skillId ?? null;
    const stored = deps.store.brands.get(brandId);
    if (target === null || stored?.raw === null || stored === undefined) return;
    const brand = deps.store.brands.upsertFromService({
      ...(stored.raw as Record<string, unknown>),
      id: brandId,
      status: stored.status ?? 'ready',
      skillId: target,
    });
    deps.events.emit('brand:updated', { brand });
  }
}

async function staleEdit(
  deps: EditDeps,
  brandId: string,
  editId: string,
  error: ApiError,
  signal: AbortSignal | undefined,
): Promise<EditActionError> {
  const data = (error.data ?? {}) as { activeSkillId?: unknown; status?: unknown };
  const active = typeof data.activeSkillId === 'string' ? data.activeSkillId : null;
  setStoredStatus(deps.store, brandId, editId, 'stale');
  deps.events.emit('edits:changed', { brandId });
  // The list shows the stale edit (and any replacement); a failure here does not hide the 409.
  await refreshEdits(deps, brandId, signal).catch(() => undefined);
  deps.events.emit('brand:skill-changed', { brandId, reason: 'edit-stale' });
  return new EditActionError(
    'BRAND_EDIT_STALE',
    `The brand changed while edit ${editId} waited for approval${active ? ` (its active Skill is now ${active})` : ''}, so the edit is stale and was not applied. The edit list was refreshed; ask for a new edit on the current brand.`,
    error.data,
  );
}

const NEXT_STEP: Record<string, string> = {
  'apply:preparing': 'wait until it is awaiting approval',
  'apply:input_required': 'its question needs an answer first',
  'apply:stale': 'ask for a new edit on the current brand',
  'discard:applied': 'an applied edit cannot be taken back by discarding it',
};

async function stateConflict(
  deps: EditDeps,
  action: 'apply' | 'discard',
  brandId: string,
  editId: string,
  error: ApiError,
  signal: AbortSignal | undefined,
): Promise<EditActionError> {
  const data = (error.data ?? {}) as { status?: unknown };
  let status = typeof data.status === 'string' ? data.status : undefined;
  if (status === undefined) {
    // The 409 did not say: ask for the edit itself (best effort).
    status = await deps.client
      .getEdit(brandId, editId, { signal })
      .then((e) => e.status)
      .catch(() => undefined);
  }
  if (status !== undefined) {
    setStoredStatus(deps.store, brandId, editId, status);
    deps.events.emit('edits:changed', { brandId });
  }
  const why =
    status === undefined
      ? 'its current state is not known'
      : `it is ${status} (${describeEditState(status)})${Object.hasOwn(NEXT_STEP, `${action}:${status}`) ? `; ${NEXT_STEP[`${action}:${status}`]}` : ''}`;
  return new EditActionError(
    'BRAND_EDIT_STATE_CONFLICT',
    `Edit ${editId} cannot be ${action === 'apply' ? 'applied' : 'discarded'}: ${why}.`,
    {
      ...(typeof error.data === 'object' && error.data !== null ? error.data : {}),
      status: status ?? null,
    },
  );
}

/**
 * The one way an action's answer reaches the store: under its (known) brand, then told to
 * the faces. Apply, discard and answer all go through here.
 */
async function recordEdit(
  deps: EditDeps,
  brandId: string,
  edit: BrandEdit,
  signal: AbortSignal | undefined,
  beforeTelling?: () => Promise<void>,
): Promise<void> {
  await knowBrand(deps, brandId, signal);
  deps.store.edits.upsert(brandId, edit);
  await beforeTelling?.();
  deps.events.emit('edits:changed', { brandId });
}

/**
 * Edits are stored under their brand: a brand this machine has not listed yet is fetched
 * (a bare row would leave the export sync without the brand's name for its folder).
 */
async function knowBrand(
  deps: Pick<EditDeps, 'store' | 'client'>,
  brandId: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const stored = deps.store.brands.get(brandId);
  if (stored !== undefined && stored.raw !== null) return;
  try {
    deps.store.brands.upsertFromService(await deps.client.getBrand(brandId, { signal }));
  } catch {
    // The edit answer stands without the brand's details (unreachable now): a bare row.
    deps.store.brands.ensure(brandId);
  }
}

/** Keeps a stored edit's status in line with what a 409 said (no stored edit: nothing to do). */
function setStoredStatus(store: Store, brandId: string, editId: string, status: string): void {
  const stored = store.edits.get(brandId, editId.toLowerCase());
  if (stored !== undefined) store.edits.upsert(brandId, { ...stored.raw, id: stored.id, status });
}

/** A stored raw record read back as an edit (it was one when stored; shapes are loose). */
function storedEdit(raw: Record<string, unknown>, id: string): BrandEdit {
  const parsed = BrandEditSchema.safeParse(raw);
  return parsed.success ? parsed.data : { id, status: String(raw.status ?? 'unknown') };
}

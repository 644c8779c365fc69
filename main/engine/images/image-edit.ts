// Editing an image costs credits (2K = 1, 4K = 2), so the cost is known and the balance
// checked before anything is sent: a short balance is refused here, unless the workspace is
// unlimited. The request itself is sent at most once: after an uncertain outcome a second
// send could start (and bill) a second edit, so it is never repeated (the client's `once`).
import { IMAGE_EDIT_LIMITS } from '../api/assumed.ts';
import { isApiError, isUuid } from '../api/index.ts';
import type { ApiClient, ImageEditResult } from '../api/index.ts';
import { IMAGE_MODELS, IMAGE_SIZES } from '../api/images.ts';
import { actionLink } from '../api/messages.ts';
import type { Store } from '../store/index.ts';

export { IMAGE_MODELS, IMAGE_SIZES };
export type ImageSize = (typeof IMAGE_SIZES)[number];
export type ImageModel = (typeof IMAGE_MODELS)[number];

/** The interface document: 2K costs 1 credit, 4K costs 2. 2K is the default size. */
export const IMAGE_EDIT_COST: Record<ImageSize, number> = { '2K': 1, '4K': 2 };
export const MAX_PROMPT = IMAGE_EDIT_LIMITS.maxPrompt;
/** The activity code of a charge the service made (the credits screen lists them). */
export const CREDITS_SPENT = 'CREDITS_SPENT';
export const MAX_REFERENCES = IMAGE_EDIT_LIMITS.maxReferences;

export interface ImageEditRequest {
  imageId: string;
  /** The brand (brandSessionId), required by the service. */
  brandId: string;
  prompt: string;
  model?: ImageModel;
  size?: ImageSize;
  referenceImageIds?: string[];
}

export interface CreditCheck {
  workspaceId: string | null;
  balance: number;
  unlimited: boolean;
  /** 'service': asked now; 'store': the service could not be reached, as last synced. */
  source: 'service' | 'store';
  syncedAt: number;
}

export interface ImageEditPlan {
  request: ImageEditRequest;
  size: ImageSize;
  cost: number;
  /**
   * The brand's workspace (null: personal) and its name when known; `known: false` when the
   * brand record does not name it (then no balance is checked: the service decides).
   */
  workspace: { id: string | null; name: string | null; known: boolean };
  /** null when no balance could be learned (the service decides). */
  credits: CreditCheck | null;
  /** The known balance does not cover the cost (never for unlimited workspaces). */
  short: boolean;
}

/** The edit was not started, for a reason phrased here; `data` carries the figures or link. */
export class ImageEditRefused extends Error {
  readonly code: string;
  readonly data: unknown;
  constructor(code: string, message: string, data?: unknown) {
    super(message);
    this.name = 'ImageEditRefused';
    this.code = code;
    this.data = data;
  }
}

export interface ImageEditDeps {
  store: Store;
  client: ApiClient;
}

function checkRequest(request: ImageEditRequest): void {
  const bad = (message: string): never => {
    throw new ImageEditRefused('INVALID_INPUT', message);
  };
  if (!isUuid(request.imageId)) bad(`The image ID must be a UUID, got "${request.imageId}".`);
  if (!isUuid(request.brandId)) bad(`The brand ID must be a UUID, got "${request.brandId}".`);
  if (request.prompt.trim().length === 0) bad('The prompt must not be empty.');
  if (request.prompt.length > MAX_PROMPT) {
    bad(`The prompt may be at most ${MAX_PROMPT} characters, got ${request.prompt.length}.`);
  }
  if (request.size !== undefined && !IMAGE_SIZES.includes(request.size)) {
    bad(`The size must be 2K or 4K, got "${String(request.size)}".`);
  }
  if (request.model !== undefined && !IMAGE_MODELS.includes(request.model)) {
    bad(`The model must be fast, standard or pro, got "${String(request.model)}".`);
  }
  const refs = request.referenceImageIds ?? [];
  if (refs.length > MAX_REFERENCES) {
    bad(`At most ${MAX_REFERENCES} reference images, got ${refs.length}.`);
  }
  for (const ref of refs)
    if (!isUuid(ref)) bad(`A reference image ID must be a UUID, got "${ref}".`);
}

/** Checks the request, finds the brand's workspace and its balance, and prices the edit. */
export async function planImageEdit(
  deps: ImageEditDeps,
  request: ImageEditRequest,
  signal?: AbortSignal,
): Promise<ImageEditPlan> {
  checkRequest(request);
  return {
    request,
    ...(await quoteImageEdit(deps, request.brandId, request.size ?? '2K', signal)),
  };
}

/** What an edit of this size costs for this brand, and whether its workspace can pay it. */
export async function quoteImageEdit(
  deps: ImageEditDeps,
  brandId: string,
  size: ImageSize,
  signal?: AbortSignal,
): Promise<Omit<ImageEditPlan, 'request'>> {
  const cost = IMAGE_EDIT_COST[size];
  const workspace = await brandWorkspace(deps, brandId, signal);
  // Never the personal balance for a brand whose workspace is unknown: it may be a team's.
  const credits = workspace.known ? await creditsOf(deps, workspace.id, signal) : null;
  const short = credits !== null && !credits.unlimited && credits.balance < cost;
  return { size, cost, workspace, credits, short };
}

async function brandWorkspace(
  deps: ImageEditDeps,
  brandId: string,
  signal: AbortSignal | undefined,
): Promise<ImageEditPlan['workspace']> {
  const stored = deps.store.brands.get(brandId.toLowerCase());
  if (stored !== undefined && !stored.deletedRemotely && stored.raw !== null) {
    const raw = stored.raw as { workspaceId?: unknown; workspaceName?: unknown };
    return {
      id: stored.workspaceId,
      name: typeof raw.workspaceName === 'string' ? raw.workspaceName : null,
      // null names the personal workspace; absent names nothing.
      known: raw.workspaceId !== undefined,
    };
  }
  const brand = await deps.client.getBrand(brandId, { signal });
  deps.store.brands.upsertFromService(brand);
  return {
    id: brand.workspaceId ?? null,
    name: brand.workspaceName ?? null,
    known: brand.workspaceId !== undefined,
  };
}

/** The balance now, stored; the stored one when the service cannot be reached; else null. */
async function creditsOf(
  deps: ImageEditDeps,
  workspaceId: string | null,
  signal: AbortSignal | undefined,
): Promise<CreditCheck | null> {
  try {
    const fresh = await deps.client.getCredits({ workspaceId }, { signal });
    deps.store.workspaces.setCredits(workspaceId, fresh);
    return { workspaceId, ...pick(fresh), source: 'service', syncedAt: deps.store.now() };
  } catch (error) {
    if (!isApiError(error) || (error.kind !== 'network' && error.kind !== 'server')) throw error;
    const stored = deps.store.workspaces.credits(workspaceId);
    return stored === undefined
      ? null
      : { workspaceId, ...pick(stored), source: 'store', syncedAt: stored.syncedAt };
  }
}

function pick(c: { balance: number; unlimited: boolean }): { balance: number; unlimited: boolean } {
  return { balance: c.balance, unlimited: c.unlimited };
}

/**
 * Starts the edit the plan priced. Refused when the known balance is short; every refusal
 * of the service that has advice (credits, plan, beta) becomes an ImageEditRefused.
 */
export async function startImageEdit(
  deps: ImageEditDeps,
  plan: ImageEditPlan,
  signal?: AbortSignal,
): Promise<ImageEditResult> {
  if (plan.short && plan.credits !== null) {
    throw new ImageEditRefused(
      'INSUFFICIENT_CREDITS',
      `This edit costs ${credits(plan.cost)} (${plan.size}) and ${workspaceLabel(plan.workspace)} has ${credits(plan.credits.balance)}${plan.credits.source === 'store' ? ' (as last synced)' : ''}; nothing was sent.${plan.size === '4K' ? ' A 2K edit costs 1 credit.' : ''}`,
      { required: plan.cost, balance: plan.credits.balance, workspaceId: plan.workspace.id },
    );
  }
  const { request } = plan;
  let started: ImageEditResult;
  try {
    started = await deps.client.editImage(
      request.imageId,
      {
        prompt: request.prompt,
        brandSessionId: request.brandId,
        imageSize: plan.size,
        ...(request.model ? { model: request.model } : {}),
        ...(request.referenceImageIds?.length
          ? { referenceImageIds: request.referenceImageIds }
          : {}),
      },
      { signal },
    );
  } catch (error) {
    throw explainImageEditError(error) ?? error;
  }
  // What it cost, for the credits screen ("what recent actions cost").
  deps.store.activity.add({
    level: 'info',
    code: CREDITS_SPENT,
    message: `Image edit started: ${credits(plan.cost)} (${plan.size}) from ${workspaceLabel(plan.workspace)}.`,
    data: {
      action: 'image edit',
      cost: plan.cost,
      workspaceId: plan.workspace.id,
      imageId: started.id,
    },
  });
  // The stored balance follows the charge until the next refresh reads the real one.
  if (plan.credits !== null && !plan.credits.unlimited) {
    deps.store.workspaces.setCredits(plan.workspace.id, {
      balance: plan.credits.balance - plan.cost,
      unlimited: false,
    });
  }
  return started;
}

export function credits(n: number): string {
  return `${n} credit${n === 1 ? '' : 's'}`;
}

export function workspaceLabel(workspace: { id: string | null; name: string | null }): string {
  if (workspace.id === null) return 'your personal workspace';
  return workspace.name ? `workspace ${workspace.name}` : `workspace ${workspace.id}`;
}

/** Advice for the refusals of an image edit; undefined when the error needs none beyond its code. */
export function explainImageEditError(error: unknown): ImageEditRefused | undefined {
  if (!isApiError(error)) return undefined;
  const link = actionLink(error.data);
  const data = error.data ?? null;
  switch (error.code) {
    case 'INSUFFICIENT_CREDITS': {
      const d = (error.data ?? {}) as { required?: unknown; balance?: unknown };
      const figures =
        typeof d.required === 'number' && typeof d.balance === 'number'
          ? ` (it costs ${credits(d.required)}; the balance is ${d.balance})`
          : '';
      return new ImageEditRefused(
        error.code,
        `Not enough credits for this edit${figures}; nothing was charged.${link ? ` Add credits: ${link}` : ''}`,
        data,
      );
    }
    case 'PAYMENT_REQUIRED':
      return new ImageEditRefused(
        error.code,
        `A payment is required before images can be edited${link ? `: ${link}` : ' (see your account on the service).'}`,
        data,
      );
    case 'FEATURE_NOT_ENTITLED':
      return new ImageEditRefused(
        error.code,
        `Your plan does not include ${describeFeature(error.data)}: use size 2K, or upgrade the plan.`,
        data,
      );
    case 'BETA_ACCESS_REQUIRED':
      return new ImageEditRefused(
        error.code,
        'Choosing a model needs beta access, which this account does not have: leave the model out and the service uses its default.',
        data,
      );
    case 'FORBIDDEN':
      return new ImageEditRefused(
        error.code,
        'Your plan does not include image editing: upgrade the plan to use it.',
        data,
      );
  }
  if (error.uncertain) {
    return new ImageEditRefused(
      'EDIT_OUTCOME_UNKNOWN',
      `No answer came to the edit request (${error.message}); the service may have started it, and charged for it. It was not sent again, so as not to pay twice: look at the brand's Library before asking again.`,
      { code: error.code },
    );
  }
  return undefined;
}

function describeFeature(data: unknown): string {
  const feature = (data as { feature?: unknown } | null)?.feature;
  return typeof feature === 'string'
    ? `${feature} output`
    : 'this option (4K output, for instance)';
}

// Brand Edits (docs/service.md "Edit states"): preparing → input_required | awaiting_approval;
// apply only from awaiting_approval (→ applied, the candidate becomes the active Skill; when the
// active Skill changed meanwhile → stale and 409 BRAND_EDIT_STALE); discard from preparing,
// input_required or awaiting_approval (→ discarded); a repeated apply or discard returns the edit;
// any other state answers 409 BRAND_EDIT_STATE_CONFLICT.
import { SimError } from '../errors.ts';
import type { Brand, Edit } from '../model.ts';
import type { SimState } from '../state.ts';
import { newSkill } from './brands.ts';

export const EDIT_STATES = [
  'preparing',
  'input_required',
  'awaiting_approval',
  'applied',
  'discarded',
  'stale',
];
const DISCARDABLE = new Set(['preparing', 'input_required', 'awaiting_approval']);

export interface EditSeed {
  brandId: string;
  /** Initial status; default preparing (which moves on after durations.editPrepareMs). */
  status?: string;
  /** Where preparation ends: awaiting_approval (default) or input_required. */
  preparedStatus?: string;
  changeSummary?: string;
  /** A new primary colour for the candidate (default derived). */
  colorHex?: string;
  error?: { code: string; message: string; retryable: boolean } | null;
}

export function createEdit(state: SimState, brand: Brand, seed: EditSeed): Edit {
  if (!brand.skillId) throw new Error(`brand ${brand.id} has no active Skill to edit`);
  const base = state.skills.get(brand.skillId);
  if (!base) throw new Error('active Skill missing');
  const n = state.edits.size + 1;
  const colorHex = seed.colorHex ?? proposedColour(seed.changeSummary ?? '', n);
  const note = seed.changeSummary ?? `Refresh the primary colour to ${colorHex}`;
  const target = newSkill(
    state,
    { id: brand.id, name: base.profile.name, instructions: null },
    base,
    {
      candidate: true,
      note,
      colorHex,
    },
  );
  const now = state.now();
  const preparedStatus = seed.preparedStatus ?? 'awaiting_approval';
  const status = seed.status ?? 'preparing';
  const edit: Edit = {
    id: state.newId(),
    seq: state.nextSeq(),
    brandId: brand.id,
    status,
    baseSkillId: base.id,
    targetSkillId: target.id,
    changeSummary: note,
    statusMessage: statusMessage(status),
    interaction: null,
    replacement: null,
    error: seed.error ?? null,
    preparedStatus,
    createdAt: now,
    updatedAt: now,
  };
  if (status === 'input_required') edit.interaction = interaction(state);
  state.edits.set(edit.id, edit);
  if (status === 'preparing') {
    edit.timer = state.after(state.durations.editPrepareMs, () => {
      if (edit.status !== 'preparing') return;
      if (edit.preparedStatus === 'input_required') edit.interaction = interaction(state);
      setStatus(state, edit, edit.preparedStatus);
    });
  }
  return edit;
}

/**
 * The colour an edit proposes, following what it was asked for: "warmer" gets a warm colour
 * (an orange to brick red), "cooler" a cool blue; anything else a colour derived from n.
 */
export function proposedColour(request: string, n: number): string {
  if (/\bwarm/i.test(request)) return hslHex(12 + ((n * 7) % 24), 0.68, 0.46);
  if (/\bcool/i.test(request)) return hslHex(200 + ((n * 7) % 24), 0.6, 0.42);
  return `#${((0x35a7ff + n * 0x1f3d5) & 0xffffff).toString(16).padStart(6, '0').toUpperCase()}`;
}

function hslHex(hue: number, sat: number, light: number): string {
  const a = sat * Math.min(light, 1 - light);
  const channel = (k0: number): string => {
    const k = (k0 + hue / 30) % 12;
    const v = light - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`.toUpperCase();
}

function interaction(state: SimState): Record<string, unknown> {
  return {
    id: state.newId(),
    subject: 'Primary colour',
    prompt: 'Should the refreshed colour also replace the accent colour?',
    kind: 'clarification',
    accepts: {
      text: { required: true, minLength: 1, maxLength: 10000 },
      images: { min: 0, max: 9 },
      sources: { min: 0, max: 5 },
    },
  };
}

function statusMessage(status: string): string {
  switch (status) {
    case 'preparing':
      return 'Preparing the candidate.';
    case 'input_required':
      return 'A question needs an answer.';
    case 'awaiting_approval':
      return 'The candidate is ready for approval.';
    case 'applied':
      return 'The candidate is the active brand.';
    case 'discarded':
      return 'The edit was discarded.';
    case 'stale':
      return 'The brand changed while the edit waited.';
    default:
      return status;
  }
}

function setStatus(state: SimState, edit: Edit, status: string): void {
  edit.status = status;
  edit.statusMessage = statusMessage(status);
  edit.updatedAt = state.now();
  state.notify(`edit:${edit.id}`);
}

function staleError(state: SimState, edit: Edit, brand: Brand): SimError {
  return new SimError(
    409,
    'BRAND_EDIT_STALE',
    'the brand changed while the edit waited for approval',
    {
      editId: edit.id,
      status: 'stale',
      activeSkillId: brand.skillId,
    },
  );
}

export function applyEdit(state: SimState, brand: Brand, edit: Edit): Edit {
  if (edit.status === 'applied') return edit;
  if (edit.status === 'stale') throw staleError(state, edit, brand);
  if (edit.status !== 'awaiting_approval') {
    throw new SimError(
      409,
      'BRAND_EDIT_STATE_CONFLICT',
      `the edit cannot be applied while ${edit.status}`,
      {
        editId: edit.id,
        status: edit.status,
      },
    );
  }
  if (brand.skillId !== edit.baseSkillId) {
    setStatus(state, edit, 'stale');
    throw staleError(state, edit, brand);
  }
  const target = state.skills.get(edit.targetSkillId);
  if (target) target.candidate = false;
  brand.skillId = edit.targetSkillId;
  brand.updatedAt = state.now();
  setStatus(state, edit, 'applied');
  state.notify(`brand:${brand.id}`);
  return edit;
}

export function discardEdit(state: SimState, edit: Edit): Edit {
  if (edit.status === 'discarded') return edit;
  if (!DISCARDABLE.has(edit.status)) {
    throw new SimError(
      409,
      'BRAND_EDIT_STATE_CONFLICT',
      `the edit cannot be discarded while ${edit.status}`,
      {
        editId: edit.id,
        status: edit.status,
      },
    );
  }
  // Cancellation is requested; a running preparation never publishes its candidate.
  edit.timer?.cancel();
  edit.replacement = { replacesEditId: null, replacedByEditId: null, discardReason: 'explicit' };
  setStatus(state, edit, 'discarded');
  return edit;
}

export interface EditAnswer {
  interactionId: unknown;
  text?: unknown;
  imageIds?: unknown;
  sources?: unknown;
}

/**
 * The answer to an edit's question (assumed: not in the interface document): checked against
 * the interaction's bounds, then the edit prepares its candidate again.
 */
export function answerEdit(state: SimState, edit: Edit, answer: EditAnswer): Edit {
  const asked = edit.interaction as {
    id: string;
    accepts: {
      text: { minLength: number; maxLength: number; required: boolean };
      images: { min: number; max: number };
      sources: { min: number; max: number };
    };
  } | null;
  if (edit.status !== 'input_required' || asked === null) {
    throw new SimError(
      409,
      'BRAND_EDIT_STATE_CONFLICT',
      `the edit is ${edit.status}: it asks no question`,
    );
  }
  if (answer.interactionId !== asked.id) {
    throw new SimError(
      400,
      'INVALID_INPUT',
      'interactionId does not name the question this edit asks',
    );
  }
  const text = typeof answer.text === 'string' ? answer.text : '';
  const { accepts } = asked;
  if (
    (accepts.text.required && text.length < accepts.text.minLength) ||
    text.length > accepts.text.maxLength
  ) {
    throw new SimError(
      400,
      'INVALID_INPUT',
      `text must be ${accepts.text.minLength}-${accepts.text.maxLength} characters`,
    );
  }
  for (const [field, bounds] of [
    ['imageIds', accepts.images],
    ['sources', accepts.sources],
  ] as const) {
    const list = answer[field] ?? [];
    if (!Array.isArray(list) || list.length < bounds.min || list.length > bounds.max) {
      throw new SimError(
        400,
        'INVALID_INPUT',
        `${field} must list ${bounds.min}-${bounds.max} items`,
      );
    }
  }
  edit.interaction = null;
  edit.preparedStatus = 'awaiting_approval';
  setStatus(state, edit, 'preparing');
  edit.timer = state.after(state.durations.editPrepareMs, () => {
    if (edit.status === 'preparing') setStatus(state, edit, 'awaiting_approval');
  });
  return edit;
}

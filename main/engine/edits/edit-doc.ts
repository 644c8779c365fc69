// One Brand Edit in a stable shape: the same keys every time, null where the service said
// nothing. Which edit fields are optional is not shown by the document, and states, kinds
// and operations may grow: unknown values are kept as they are.
import type { BrandEdit } from '../api/index.ts';

/** docs/service.md, Edit states (the service may add others: they are shown as they are). */
export const EDIT_STATES = {
  preparing: 'the service is preparing the candidate',
  input_required: 'a question needs an answer before the candidate can be prepared',
  awaiting_approval: 'the candidate is ready: apply it or discard it',
  applied: 'the candidate is the active brand',
  discarded: 'ended without changing the brand',
  stale: 'the brand changed while the edit waited',
} as const satisfies Record<string, string>;

/** States from which an edit can still be decided (docs/service.md). */
export const PENDING_EDIT_STATES: readonly string[] = [
  'preparing',
  'input_required',
  'awaiting_approval',
];

/** States in which an edit waits for the user (a question, an approval): what the window counts. */
export const WAITING_EDIT_STATES: readonly string[] = ['input_required', 'awaiting_approval'];

export function describeEditState(status: string): string {
  return Object.hasOwn(EDIT_STATES, status)
    ? EDIT_STATES[status as keyof typeof EDIT_STATES]
    : `"${status}" (a state Brand Sync does not know)`;
}

export interface DiffLineDoc {
  kind: string | null;
  text: string;
  noNewlineAtEndOfFile: boolean;
}

export interface EditDoc {
  id: string;
  brandId: string | null;
  status: string;
  statusMessage: string | null;
  changeSummary: string | null;
  baseSkillId: string | null;
  targetSkillId: string | null;
  error: { code: string | null; message: string | null; retryable: boolean | null } | null;
  interaction: {
    id: string | null;
    subject: string | null;
    prompt: string | null;
    kind: string | null;
    accepts: {
      text: { required: boolean | null; minLength: number | null; maxLength: number | null } | null;
      images: { min: number | null; max: number | null } | null;
      sources: { min: number | null; max: number | null } | null;
    } | null;
  } | null;
  profileChanges: {
    kind: string | null;
    path: string | null;
    operation: string | null;
    previous: unknown;
    next: unknown;
  }[];
  markdownChanges: {
    path: string | null;
    operation: string | null;
    additions: number | null;
    deletions: number | null;
    truncated: boolean;
    hunks: {
      oldStart: number | null;
      oldLines: number | null;
      newStart: number | null;
      newLines: number | null;
      lines: DiffLineDoc[];
    }[];
  }[];
  assetChanges: {
    kind: string | null;
    role: string | null;
    operation: string | null;
    previousAssetId: string | null;
    nextAssetId: string | null;
  }[];
  targetProfile: {
    name: string | null;
    primaryLogoImageId: string | null;
    colors: string[];
    typography: {
      heading: { source: string | null; family: string | null } | null;
      body: { source: string | null; family: string | null } | null;
    } | null;
  } | null;
  replacement: {
    replacesEditId: string | null;
    replacedByEditId: string | null;
    discardReason: string | null;
  } | null;
  createdAt: string | null;
  updatedAt: string | null;
}

const n = <T>(value: T | null | undefined): T | null => value ?? null;

export function editDoc(edit: BrandEdit): EditDoc {
  const set = edit.changeSet;
  const accepts = edit.interaction?.accepts;
  const bounds = (b: { min?: number | null; max?: number | null } | null | undefined) =>
    b ? { min: n(b.min), max: n(b.max) } : null;
  const font = (f: { source?: string | null; family?: string | null } | null | undefined) =>
    f ? { source: n(f.source), family: n(f.family) } : null;
  const profile = edit.targetProfile;
  return {
    id: edit.id,
    brandId: n(edit.brandId),
    status: edit.status,
    statusMessage: n(edit.statusMessage),
    changeSummary: n(edit.changeSummary),
    baseSkillId: n(edit.baseSkillId ?? set?.baseSkillId),
    targetSkillId: n(edit.target?.skillId ?? set?.targetSkillId),
    error: edit.error
      ? {
          code: n(edit.error.code),
          message: n(edit.error.message),
          retryable: n(edit.error.retryable),
        }
      : null,
    interaction: edit.interaction
      ? {
          id: n(edit.interaction.id),
          subject: n(edit.interaction.subject),
          prompt: n(edit.interaction.prompt),
          kind: n(edit.interaction.kind),
          accepts: accepts
            ? {
                text: accepts.text
                  ? {
                      required: n(accepts.text.required),
                      minLength: n(accepts.text.minLength),
                      maxLength: n(accepts.text.maxLength),
                    }
                  : null,
                images: bounds(accepts.images),
                sources: bounds(accepts.sources),
              }
            : null,
        }
      : null,
    profileChanges: (set?.profileChanges ?? []).map((c) => ({
      kind: n(c.kind),
      path: n(c.path),
      operation: n(c.operation),
      previous: c.previous ?? null,
      next: c.next ?? null,
    })),
    markdownChanges: (set?.markdownChanges ?? []).map((c) => ({
      path: n(c.path),
      operation: n(c.operation),
      additions: n(c.additions),
      deletions: n(c.deletions),
      truncated: c.truncated === true,
      hunks: (c.hunks ?? []).map((h) => ({
        oldStart: n(h.oldStart),
        oldLines: n(h.oldLines),
        newStart: n(h.newStart),
        newLines: n(h.newLines),
        lines: (h.lines ?? []).map((l) => ({
          kind: n(l.kind),
          text: l.text ?? '',
          noNewlineAtEndOfFile: l.noNewlineAtEndOfFile === true,
        })),
      })),
    })),
    assetChanges: (set?.assetChanges ?? []).map((c) => ({
      kind: n(c.kind),
      role: n(c.role),
      operation: n(c.operation),
      previousAssetId: n(c.previousAssetId),
      nextAssetId: n(c.nextAssetId),
    })),
    targetProfile: profile
      ? {
          name: n(profile.name),
          primaryLogoImageId: n(profile.primaryLogo?.imageId),
          colors: (profile.colors ?? []).map((c) => c.hex).filter((h): h is string => !!h),
          typography: profile.typography
            ? { heading: font(profile.typography.heading), body: font(profile.typography.body) }
            : null,
        }
      : null,
    replacement: edit.replacement
      ? {
          replacesEditId: n(edit.replacement.replacesEditId),
          replacedByEditId: n(edit.replacement.replacedByEditId),
          discardReason: n(edit.replacement.discardReason),
        }
      : null,
    createdAt: n(edit.createdAt),
    updatedAt: n(edit.updatedAt),
  };
}

// What the wire shows: each record turned into the JSON of the interface document (and of the
// assumptions of docs/service.md where the document is silent).
import type { MediaRecord } from './library.ts';
import type { BetaJob, Brand, Edit, ExportRec, ImageRec } from './model.ts';
import { resolveContent } from './media-content.ts';
import type { SimState } from './state.ts';

export function brandView(state: SimState, b: Brand): Record<string, unknown> {
  const skill = b.skillId ? state.skills.get(b.skillId) : undefined;
  return {
    id: b.id,
    status: b.status,
    name: b.name,
    url: b.url,
    logoUrl: skill
      ? state.url(`/files/logos/${skill.id}/${state.sign(skill.id)}.${skill.logo.ext}`)
      : null,
    colors: skill ? skill.profile.colors : null,
    fonts: skill
      ? [
          { role: 'heading', ...skill.profile.typography.heading },
          { role: 'body', ...skill.profile.typography.body },
        ]
      : null,
    summary: skill ? skill.profile.summary : null,
    workspaceId: b.workspaceId,
    workspaceName: state.workspaceName(b.workspaceId),
    failure: b.failure,
    ...(state.brandRecordNamesSkill ? { skillId: b.skillId } : {}),
    createdAt: state.iso(b.createdAt),
    updatedAt: state.iso(b.updatedAt),
  };
}

export function exportView(state: SimState, e: ExportRec): Record<string, unknown> {
  return {
    id: e.id,
    brandId: e.brandId,
    skillId: e.skillId,
    status: e.status,
    ...(e.status === 'ready' && e.downloadPath
      ? { download: { url: (state.downloadOrigin ?? state.origin) + e.downloadPath } }
      : {}),
    ...(e.failure ? { failure: e.failure } : {}),
    createdAt: state.iso(e.createdAt),
    updatedAt: state.iso(e.updatedAt),
  };
}

export function mediaUrl(state: SimState, id: string): string {
  return state.url(`/files/media/${id}/${state.sign(id)}`);
}

export function mediaView(state: SimState, m: MediaRecord): Record<string, unknown> {
  return {
    id: m.id,
    type: m.type,
    source: m.source,
    brandSessionId: m.brandId,
    workspaceId: state.brands.get(m.brandId)?.workspaceId ?? null,
    mimeType: m.mimeType,
    url: mediaUrl(state, m.id),
    fileSize: m.fileSize,
    durationMs: m.durationMs,
    width: m.width,
    height: m.height,
    description: m.description,
    inLibrary: m.inLibrary,
    addedToLibraryAt: state.iso(m.addedAt),
    generationId: m.generationId,
    createdAt: state.iso(m.createdAt),
  };
}

export function imageUrl(state: SimState, id: string): string {
  return state.url(`/img/${id}`);
}

export function imageView(state: SimState, i: ImageRec): Record<string, unknown> {
  return {
    id: i.id,
    source: i.source,
    status: i.status,
    failureReason: i.failureReason,
    prompt: i.prompt,
    description: i.description,
    imageUrl: i.status === 'completed' ? imageUrl(state, i.id) : null,
    aspectRatio: i.aspectRatio,
    width: i.width,
    height: i.height,
    actionType: i.actionType,
    variantGroupId: i.variantGroupId,
    workspaceId: i.workspaceId,
    workspaceName: state.workspaceName(i.workspaceId),
    mimeType: i.mimeType,
    fileSize: i.status === 'completed' ? resolveContent(i.content).length : null,
    createdAt: state.iso(i.createdAt),
  };
}

export function uploadResultView(
  state: SimState,
  i: ImageRec,
  existing: boolean,
): Record<string, unknown> {
  return {
    id: i.id,
    imageUrl: imageUrl(state, i.id),
    width: i.width,
    height: i.height,
    mimeType: i.mimeType,
    existing,
  };
}

export function editView(state: SimState, e: Edit): Record<string, unknown> {
  const base = state.skills.get(e.baseSkillId);
  const target = state.skills.get(e.targetSkillId);
  const profileChanges: unknown[] = [];
  const markdownChanges: unknown[] = [];
  const assetChanges: unknown[] = [];
  if (base && target) {
    target.profile.colors.forEach((c, i) => {
      const prev = base.profile.colors[i];
      if (!prev || prev.hex !== c.hex) {
        profileChanges.push({
          kind: 'field',
          path: `colors[${i}].hex`,
          operation: prev ? 'replace' : 'add',
          previous: prev?.hex ?? null,
          next: c.hex,
        });
      }
    });
    const added = target.notes.slice(base.notes.length);
    if (added.length > 0) {
      const oldLines = 12;
      markdownChanges.push({
        path: 'SKILL.md',
        operation: 'modify',
        additions: added.length,
        deletions: 0,
        hunks: [
          {
            oldStart: oldLines,
            oldLines: 1,
            newStart: oldLines,
            newLines: 1 + added.length,
            lines: [
              { kind: 'context', text: '## Notes', noNewlineAtEndOfFile: false },
              ...added.map((n) => ({ kind: 'add', text: `- ${n}`, noNewlineAtEndOfFile: false })),
            ],
          },
        ],
        truncated: false,
      });
    }
    if (base.logo !== target.logo) {
      assetChanges.push({
        kind: 'asset',
        role: 'primary_logo',
        operation: 'replace',
        previousAssetId: base.logo.imageId,
        nextAssetId: target.logo.imageId,
      });
    }
  }
  return {
    id: e.id,
    brandId: e.brandId,
    status: e.status,
    baseSkillId: e.baseSkillId,
    target: { skillId: e.targetSkillId },
    changeSet: {
      schemaVersion: 2,
      baseSkillId: e.baseSkillId,
      targetSkillId: e.targetSkillId,
      profileChanges,
      markdownChanges,
      assetChanges,
    },
    targetProfile: target
      ? {
          name: target.profile.name,
          primaryLogo: { imageId: target.logo.imageId },
          colors: target.profile.colors.map((c) => ({ hex: c.hex })),
          typography: target.profile.typography,
        }
      : null,
    interaction: e.interaction,
    replacement: e.replacement,
    changeSummary: e.changeSummary,
    statusMessage: e.statusMessage,
    error: e.error,
    createdAt: state.iso(e.createdAt),
    updatedAt: state.iso(e.updatedAt),
  };
}

export function betaView(
  state: SimState,
  j: BetaJob,
  zipMode: 'url' | 'base64',
): Record<string, unknown> {
  let zip: unknown = undefined;
  if (j.status === 'completed' && j.zipPath) {
    const file = state.files.get(j.zipPath);
    zip =
      zipMode === 'base64' && file
        ? { contentBase64: resolveContent(file.content).toString('base64') }
        : { url: state.url(j.zipPath) };
  }
  return {
    id: j.id,
    brandId: j.brandId,
    status: j.status,
    brandName: j.brandName,
    failure: j.failure,
    skillId: j.skillId,
    ...(zip ? { zip } : {}),
    createdAt: state.iso(j.createdAt),
    updatedAt: state.iso(j.updatedAt),
  };
}

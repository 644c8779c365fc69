// Brand lifecycle: creation and analysis (analyzing → ready | failed), logo re-analysis,
// deletion, Skill versions and exports (preparing → ready | failed).
//
// Deterministic outcomes (besides control.outcomes): a source URL (or a staged file name)
// containing `fail-<CODE>`, e.g. https://fail-SCRAPE_FAILED.example.com or
// https://example.com/fail-INSTAGRAM_PRIVATE_PROFILE, makes the brand (or beta job) fail with
// CODE; an unknown CODE is reported as it is, as the real service may add codes.
import { SimError } from '../errors.ts';
import type { Brand, ExportRec, Logo, Skill, Source } from '../model.ts';
import { CREATION_FAILURE_CODES } from '../model.ts';
import { buildSkillZip, slug } from '../skill-zip.ts';
import type { SimState } from '../state.ts';
import { deriveProfile, generatedLogo, nameFromSources } from './profile.ts';

export interface BrandInput {
  sources: Source[];
  instructions: string | null;
  workspaceId: string | null;
  /** A failure the sources already decide (INVALID_URL, UNSUPPORTED_SOURCE), reported after analysis. */
  failCode?: string | null;
}

export function createBrand(state: SimState, input: BrandInput): Brand {
  const now = state.now();
  const website = input.sources.find((s) => s.kind === 'website');
  const brand: Brand = {
    id: state.newId(),
    seq: state.nextSeq(),
    name: nameFromSources(input.sources),
    url: website?.url ?? null,
    status: 'analyzing',
    failure: null,
    sources: input.sources,
    instructions: input.instructions,
    workspaceId: input.workspaceId,
    skillId: null,
    createdAt: now,
    updatedAt: now,
  };
  state.brands.set(brand.id, brand);
  const failCode = input.failCode ?? null;
  brand.timer = state.after(state.durations.brandAnalysisMs, () =>
    finishAnalysis(state, brand, failCode),
  );
  return brand;
}

/** The failure code a source asks for by the `fail-<CODE>` convention, if any. */
export function conventionFailure(state: SimState, sources: Source[]): string | null {
  for (const s of sources) {
    const text = s.url ?? (s.uploadId ? state.staged.get(s.uploadId)?.fileName : undefined) ?? '';
    const m = /fail-([A-Za-z_]+)/.exec(decodeURIComponent(text));
    if (m) return (m[1] as string).toUpperCase();
  }
  return null;
}

export function failureOf(code: string): { code: string; message: string } {
  return { code, message: CREATION_FAILURE_CODES[code] ?? `Brand creation failed (${code}).` };
}

function finishAnalysis(state: SimState, brand: Brand, inputFailure: string | null): void {
  if (state.brands.get(brand.id) !== brand) return; // deleted meanwhile
  const forced = state.outcomes.brand.shift();
  const failCode = forced
    ? forced.failCode
    : (inputFailure ?? conventionFailure(state, brand.sources));
  brand.updatedAt = state.now();
  brand.timer = undefined;
  if (failCode) {
    brand.status = 'failed';
    brand.failure = failureOf(failCode);
  } else {
    const skill = newSkill(state, brand, null, {});
    brand.skillId = skill.id;
    brand.status = 'ready';
  }
  state.notify(`brand:${brand.id}`);
}

/** Marks a brand ready at once with a first Skill (seeding). */
export function makeReady(state: SimState, brand: Brand): Skill {
  brand.timer?.cancel();
  brand.timer = undefined;
  const skill = newSkill(
    state,
    brand,
    brand.skillId ? (state.skills.get(brand.skillId) ?? null) : null,
    {},
  );
  brand.skillId = skill.id;
  brand.status = 'ready';
  brand.failure = null;
  brand.updatedAt = state.now();
  state.notify(`brand:${brand.id}`);
  return skill;
}

export function failBrand(state: SimState, brand: Brand, code: string): void {
  brand.timer?.cancel();
  brand.timer = undefined;
  brand.status = 'failed';
  brand.failure = failureOf(code);
  brand.updatedAt = state.now();
  state.notify(`brand:${brand.id}`);
}

/** A new immutable Skill version of a brand, derived from base (or from scratch). */
export function newSkill(
  state: SimState,
  brand: { id: string; name: string | null; instructions: string | null },
  base: Skill | null,
  change: { logo?: Logo; candidate?: boolean; note?: string; colorHex?: string },
): Skill {
  const profile = base
    ? structuredClone(base.profile)
    : deriveProfile(brand.name ?? 'Untitled brand', brand.instructions);
  if (change.colorHex && profile.colors[0])
    profile.colors[0] = { hex: change.colorHex, name: 'Refreshed primary' };
  const skill: Skill = {
    id: state.newId(),
    brandId: brand.id,
    version: (base?.version ?? 0) + 1,
    profile,
    logo: change.logo ?? base?.logo ?? generatedLogo(profile),
    createdAt: state.now(),
    candidate: change.candidate ?? false,
    notes: [...(base?.notes ?? []), ...(change.note ? [change.note] : [])],
  };
  state.skills.set(skill.id, skill);
  return skill;
}

/** A logo upload: the brand goes back to analyzing, then to ready with a new active Skill. */
export function startLogoAnalysis(state: SimState, brand: Brand, logo: Logo): void {
  if (brand.status !== 'ready' || !brand.skillId) {
    throw new SimError(
      409,
      'BRAND_NOT_READY',
      `brand is ${brand.status}; a logo can be set once it is ready`,
      {
        status: brand.status,
      },
    );
  }
  brand.status = 'analyzing';
  brand.updatedAt = state.now();
  state.notify(`brand:${brand.id}`);
  brand.timer = state.after(state.durations.logoAnalysisMs, () => {
    if (state.brands.get(brand.id) !== brand) return;
    const base = brand.skillId ? (state.skills.get(brand.skillId) ?? null) : null;
    const skill = newSkill(state, brand, base, { logo });
    brand.skillId = skill.id;
    brand.status = 'ready';
    brand.updatedAt = state.now();
    brand.timer = undefined;
    state.notify(`brand:${brand.id}`);
  });
}

export function deleteBrand(state: SimState, brand: Brand): void {
  brand.timer?.cancel();
  state.brands.delete(brand.id);
  state.media.dropBrand(brand.id);
  state.notify(`brand:${brand.id}`);
}

/** POST /brands/{id}/exports: starts or reuses the export of the active Skill. */
export function requestExport(state: SimState, brand: Brand): ExportRec {
  const skillId = brand.skillId;
  if (!skillId || brand.status === 'failed') {
    throw new SimError(409, 'BRAND_SKILL_UNAVAILABLE', 'brand has no exportable Skill yet');
  }
  const existingId = state.exportBySkill.get(skillId);
  const existing = existingId ? state.exports.get(existingId) : undefined;
  if (existing && (existing.status !== 'failed' || existing.failure?.retryable === false))
    return existing;
  const now = state.now();
  const rec: ExportRec = {
    id: state.newId(),
    brandId: brand.id,
    skillId,
    status: 'preparing',
    failure: null,
    downloadPath: null,
    createdAt: now,
    updatedAt: now,
  };
  state.exports.set(rec.id, rec);
  state.exportBySkill.set(skillId, rec.id);
  state.after(state.durations.exportMs, () => state.track(finishExport(state, rec)));
  return rec;
}

const finishing = new WeakSet<ExportRec>();

async function finishExport(state: SimState, rec: ExportRec): Promise<void> {
  if (rec.status !== 'preparing' || finishing.has(rec)) return; // seeding may have finished it
  finishing.add(rec);
  const forced = state.outcomes.export.shift();
  const skill = state.skills.get(rec.skillId);
  if (forced?.fail || !skill) {
    const retryable = forced?.fail?.retryable ?? false;
    rec.status = 'failed';
    rec.failure = {
      retryable,
      code: 'EXPORT_FAILED',
      message: retryable
        ? 'The export failed; request it again.'
        : 'The export cannot be produced.',
    };
  } else {
    const zip = await buildSkillZip(skill);
    rec.downloadPath = state.serveFile('exports', {
      content: zip,
      mimeType: 'application/zip',
      fileName: `${slug(skill.profile.name)}-skill-v${skill.version}.zip`,
    });
    rec.status = 'ready';
  }
  rec.updatedAt = state.now();
  state.notify(`export:${rec.skillId}`);
}

/** Marks an export ready at once (seeding). */
export async function makeExportReady(state: SimState, brand: Brand): Promise<ExportRec> {
  const rec = requestExport(state, brand);
  await finishExport(state, rec);
  return rec;
}

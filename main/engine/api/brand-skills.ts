// Beta Brand Skill jobs (POST/GET/DELETE /brand-skills). Kept for jobs started before the
// migration to /brands; their IDs and idempotency keys do not transfer.
import { randomUUID } from 'node:crypto';
import type { ApiError } from './errors.ts';
import { byId, createWithKey, sendIdempotent, type Endpoint } from './endpoint.ts';
import type { Http } from './http.ts';
import { invalidInput, requireLength } from './input.ts';
import { BrandSkill, BrandSkillCreation } from './schemas.ts';
import type { CallOptions } from './brands.ts';

/** `{kind: website, url}` is documented; other kinds are the assumption of docs/service.md (no PDFs here). */
export type BrandSkillSource =
  | { kind: 'website'; url: string }
  | { kind: 'instagram'; url: string }
  | { kind: 'file'; url: string }
  | { kind: 'file'; uploadId: string };

export interface CreateBrandSkillInput {
  sources: BrandSkillSource[];
  brandName?: string;
  instructions?: string;
}

export interface PreparedBrandSkillCreation {
  idempotencyKey: string;
  body: CreateBrandSkillInput;
}

const CREATE: Endpoint = 'POST /brand-skills';

export function prepareBrandSkillCreation(
  input: CreateBrandSkillInput,
  options: { idempotencyKey?: string } = {},
): PreparedBrandSkillCreation {
  const idempotencyKey = options.idempotencyKey ?? randomUUID();
  requireLength(idempotencyKey, 'Idempotency-Key', 1, 255, CREATE);
  const sources = input.sources;
  if (!Array.isArray(sources) || sources.length < 1 || sources.length > 30) {
    throw invalidInput(
      CREATE,
      `A Brand Skill takes 1-30 sources, got ${Array.isArray(sources) ? sources.length : 0}.`,
    );
  }
  if (sources.filter((s) => s.kind === 'website').length > 1) {
    throw invalidInput(CREATE, 'A Brand Skill takes at most one website source.');
  }
  if (sources.some((s) => (s.kind as string) === 'pdf')) {
    throw invalidInput(
      CREATE,
      'The beta Brand Skill flow does not accept PDFs; create a brand instead.',
    );
  }
  if (input.brandName !== undefined) requireLength(input.brandName, 'brandName', 1, 120, CREATE);
  if (input.instructions !== undefined)
    requireLength(input.instructions, 'instructions', 0, 4000, CREATE);
  const body: CreateBrandSkillInput = {
    sources: sources.map((source) => ({ ...source })),
    ...(input.brandName !== undefined ? { brandName: input.brandName } : {}),
    ...(input.instructions ? { instructions: input.instructions } : {}),
  };
  return { idempotencyKey, body };
}

/** Re-sent with the same key and body when the outcome is uncertain (as POST /brands). */
export async function sendBrandSkillCreation(
  http: Http,
  prepared: PreparedBrandSkillCreation,
  options: CallOptions = {},
): Promise<BrandSkillCreation> {
  return sendIdempotent(http, CREATE, '/brand-skills', prepared, BrandSkillCreation, options);
}

export interface CreateBrandSkillOptions extends CallOptions {
  idempotencyKey?: string;
  /** Called with the key before the first send, so the caller can persist it. */
  onKey?: (key: string, body: CreateBrandSkillInput) => void | Promise<void>;
}

export async function createBrandSkill(
  http: Http,
  input: CreateBrandSkillInput,
  options: CreateBrandSkillOptions = {},
): Promise<BrandSkillCreation & { idempotencyKey: string }> {
  const prepared = prepareBrandSkillCreation(input, options);
  return createWithKey(prepared, options.onKey, () =>
    sendBrandSkillCreation(http, prepared, options),
  );
}

export const getBrandSkill = byId(
  'GET /brand-skills/{id}',
  'Brand Skill ID',
  BrandSkill,
  (id) => `/brand-skills/${id}`,
);

export const deleteBrandSkill = byId(
  'DELETE /brand-skills/{id}',
  'Brand Skill ID',
  null,
  (id) => `/brand-skills/${id}`,
  {
    // A retry after a lost answer finds the job gone: the first send did the work. Only the
    // service's own "no such job" says so; another 404 (a proxy, a route) says nothing.
    resolveAfterUncertain: (error: ApiError) =>
      error.status === 404 && error.code === 'BRAND_SKILL_NOT_FOUND'
        ? { value: undefined }
        : undefined,
  },
);

/** pending and processing are in progress; completed, failed and unknown values end the wait. */
export function isBrandSkillSettled(job: Pick<BrandSkill, 'status'>): boolean {
  return job.status !== 'pending' && job.status !== 'processing';
}

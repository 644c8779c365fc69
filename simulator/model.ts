// The records the simulator keeps in memory. Views (what the wire shows) are built from them in
// views.ts; the records carry only what the simulator needs.
import type { TimerHandle } from './clock.ts';

export interface Source {
  kind: string;
  url?: string;
  uploadId?: string;
}

export interface BrandFailure {
  code: string;
  message: string;
}

export interface Brand {
  id: string;
  /** Creation order: the position key of the brand list's cursors. */
  seq: number;
  name: string | null;
  url: string | null;
  status: string;
  failure: BrandFailure | null;
  sources: Source[];
  instructions: string | null;
  workspaceId: string | null;
  /** The active Skill (one immutable version); null until the first analysis succeeded. */
  skillId: string | null;
  createdAt: number;
  updatedAt: number;
  timer?: TimerHandle;
}

export interface Font {
  source: string;
  family: string;
}

export interface Profile {
  name: string;
  summary: string;
  colors: Array<{ hex: string; name: string }>;
  typography: { heading: Font; body: Font };
  voice: string[];
}

export interface Logo {
  bytes: Buffer;
  mimeType: string;
  ext: string;
  imageId: string | null;
}

export interface Skill {
  id: string;
  brandId: string;
  version: number;
  profile: Profile;
  logo: Logo;
  createdAt: number;
  /** A candidate of a Brand Edit that was never applied. */
  candidate: boolean;
  /** Extra guideline text from instructions or an edit. */
  notes: string[];
}

export interface ExportRec {
  id: string;
  brandId: string;
  skillId: string;
  status: string;
  failure: { retryable: boolean; code: string; message: string } | null;
  /** Path under the origin where the ZIP is served, once ready. */
  downloadPath: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface ImageRec {
  id: string;
  source: string;
  status: string;
  failureReason: string | null;
  prompt: string | null;
  description: string | null;
  aspectRatio: string;
  width: number | null;
  height: number | null;
  actionType: string;
  variantGroupId: string;
  brandId: string | null;
  workspaceId: string | null;
  mimeType: string;
  model: string | null;
  imageSize: string | null;
  createdAt: number;
  /** The served bytes (lazy for generated pictures). */
  content: Buffer | (() => Buffer);
}

export interface Edit {
  id: string;
  /** Creation order: the position key of the edit list's cursors. */
  seq: number;
  brandId: string;
  status: string;
  baseSkillId: string;
  targetSkillId: string;
  changeSummary: string;
  statusMessage: string;
  interaction: Record<string, unknown> | null;
  replacement: Record<string, unknown> | null;
  error: { code: string; message: string; retryable: boolean } | null;
  /** The status it reaches when preparation ends (awaiting_approval or input_required). */
  preparedStatus: string;
  createdAt: number;
  updatedAt: number;
  timer?: TimerHandle;
}

export interface BetaJob {
  id: string;
  brandId: string;
  status: string;
  sources: Source[];
  brandName: string | null;
  instructions: string | null;
  failure: BrandFailure | null;
  skillId: string | null;
  zipPath: string | null;
  createdAt: number;
  updatedAt: number;
  timer?: TimerHandle;
}

export interface StagedUpload {
  id: string;
  token: string;
  fileName: string;
  mimeType: string;
  size: number;
  workspaceId: string | null;
  expiresAt: number;
  /** Filled once the bytes arrived. */
  received: { sha256: string; head: Buffer } | null;
}

export interface UploadToken {
  token: string;
  kind: 'logo' | 'image';
  brandId: string | null;
  /** Label of the API key it was issued for (rate limit, ban). */
  keyLabel: string;
  expiresAt: number;
  used: boolean;
}

export interface Workspace {
  id: string;
  name: string;
  /** Whether the caller may see it; an inaccessible one answers 404 WORKSPACE_NOT_FOUND. */
  accessible: boolean;
}

export interface Credits {
  balance: number;
  unlimited: boolean;
  /** Billing needs attention: image edits answer 402 PAYMENT_REQUIRED. */
  paymentRequired: boolean;
}

export const TERMINAL_BRAND = new Set(['ready', 'failed']);
export const TERMINAL_IMAGE = new Set(['completed', 'failed']);
export const TERMINAL_EXPORT = new Set(['ready', 'failed']);
export const TERMINAL_BETA = new Set(['completed', 'failed']);

/** Brand creation failure codes (Errors, "Brand creation failure codes"), both groups. */
export const CREATION_FAILURE_CODES: Record<string, string> = {
  INVALID_URL: 'The source URL is not valid.',
  UNSUPPORTED_SOURCE: 'This kind of source is not supported.',
  WEBSITE_SOURCE_REJECTED: 'The website could not be used as a brand source.',
  PDF_SOURCE_REJECTED: 'The PDF could not be used as a brand source.',
  SOURCE_REJECTED: 'A source was rejected.',
  INSTAGRAM_PROFILE_NOT_FOUND: 'The Instagram profile does not exist.',
  INSTAGRAM_PRIVATE_PROFILE: 'The Instagram profile is private.',
  SCRAPE_FAILED: 'The website could not be scraped; try again later.',
  INSTAGRAM_FETCH_FAILED: 'The Instagram profile could not be fetched; try again later.',
  PDF_PROCESSING_FAILED: 'The PDF could not be processed; try again later.',
  BRAND_GUIDE_BUILD_FAILED: 'The brand guide could not be built; try again later.',
  INTERNAL_ERROR: 'An internal error stopped the analysis; try again later.',
};

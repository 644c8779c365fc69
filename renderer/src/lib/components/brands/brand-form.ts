// Which field of the brand form an error belongs to, so it shows beside that field: our own
// schema errors name the field; the service's source errors say which source by their code.
import type { BridgeError } from '../../../../../contract/index.ts';

export type BrandField = 'website' | 'instagram' | 'pdfs' | 'instructions' | 'workspaceId' | 'form';

const byCode: Record<string, BrandField> = {
  WEBSITE_SOURCE_REJECTED: 'website',
  INVALID_URL: 'website',
  PDF_SOURCE_REJECTED: 'pdfs',
  PDF_TOO_LARGE: 'pdfs',
  FILE_TOO_LARGE: 'pdfs',
  INSTAGRAM_PROFILE_NOT_FOUND: 'instagram',
  INSTAGRAM_PRIVATE_PROFILE: 'instagram',
  WORKSPACE_NOT_FOUND: 'workspaceId',
};

export function fieldErrors(error: BridgeError): Partial<Record<BrandField, string>> {
  if (error.code === 'VALIDATION_ERROR') {
    const out: Partial<Record<BrandField, string>> = {};
    // `createBrand: website: must be …; pdfs.0: …` (the channel, then each field).
    for (const part of error.message.replace(/^createBrand: /, '').split('; ')) {
      const match = /^(website|instagram|pdfs|instructions|workspaceId)(?:\.\d+)?: (.*)$/.exec(
        part,
      );
      if (match) out[match[1] as BrandField] ??= match[2] as string;
      else out.form = out.form ? `${out.form}; ${part}` : part;
    }
    return out;
  }
  const field = byCode[error.code] ?? guess(error.message);
  return { [field]: error.message };
}

function guess(message: string): BrandField {
  if (/\bpdf\b/i.test(message)) return 'pdfs';
  if (/instagram|social/i.test(message)) return 'instagram';
  if (/website|url/i.test(message)) return 'website';
  if (/workspace/i.test(message)) return 'workspaceId';
  return 'form';
}

// The brand form's checks and which field an error belongs to, so that every error shows at
// once beside its own field: the form checks what it can before sending (all fields in one
// go), and the engine's and the service's refusals name their field by code or by the source
// their words name.
import type { BridgeError } from '../../../../../contract/index.ts';
import { errorWords } from '../../format/error-words.ts';

export type BrandField = 'website' | 'instagram' | 'pdfs' | 'instructions' | 'workspaceId' | 'form';
export type BrandErrors = Partial<Record<BrandField, string>>;

/** The fields in the order they stand in the form (focus goes to the first with an error). */
export const FIELD_ORDER: readonly BrandField[] = [
  'form',
  'website',
  'pdfs',
  'instagram',
  'instructions',
  'workspaceId',
];

export const FIELD_LABELS: Record<string, string> = {
  website: 'The website',
  instagram: 'The social profile',
  pdfs: 'Each PDF',
  instructions: 'The instructions',
  workspaceId: 'The workspace',
};

export interface BrandFormValues {
  website: string;
  instagram: string;
  /** One per line, as typed. */
  pdfs: string;
  instructions: string;
}

export const MAX_INSTRUCTIONS = 4000;

/** Every problem the form can see before sending, each beside its field. */
export function checkBrandForm(values: BrandFormValues): BrandErrors {
  const errors: BrandErrors = {};
  const website = values.website.trim();
  const instagram = values.instagram.trim();
  const lines = values.pdfs.split('\n').map((line) => line.trim());
  const pdfs = lines.filter((line) => line !== '');
  if (website === '' && instagram === '' && pdfs.length === 0) {
    return { form: 'Give at least one source: a website, a PDF or a social profile.' };
  }
  if (website !== '') {
    const problem = webAddressProblem(website, false);
    if (problem) errors.website = `The website ${problem}.`;
  }
  if (instagram !== '') {
    const problem = webAddressProblem(instagram, true);
    if (problem) errors.instagram = `The social profile ${problem}.`;
  }
  const pdfProblems: string[] = [];
  lines.forEach((line, index) => {
    if (line === '' || !/^[a-z][a-z0-9+.-]*:\/\//i.test(line)) return;
    const problem = webAddressProblem(line, true);
    if (problem) pdfProblems.push(`Line ${index + 1}: the link ${problem}.`);
  });
  if (pdfs.length > 30) pdfProblems.push(`Give at most 30 PDFs (there are ${pdfs.length}).`);
  if (pdfProblems.length > 0) errors.pdfs = pdfProblems.join(' ');
  if (values.instructions.length > MAX_INSTRUCTIONS) {
    errors.instructions = `The instructions can be at most ${MAX_INSTRUCTIONS} characters (there are ${values.instructions.length}).`;
  }
  return errors;
}

/** What is wrong with a typed web address, or null. */
function webAddressProblem(value: string, httpsOnly: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return httpsOnly
      ? 'must be a full link, with https:// at the start'
      : 'must be a full address, with https:// at the start';
  }
  if (url.protocol === 'http:' && httpsOnly) return 'must start with https:// (not http://)';
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `must be a web address, with https:// at the start (not ${url.protocol}//)`;
  if (url.hostname === '' || (!url.hostname.includes('.') && url.hostname !== 'localhost'))
    return `needs a full domain name (got "${url.hostname}")`;
  return null;
}

const byCode: Record<string, BrandField> = {
  WEBSITE_SOURCE_REJECTED: 'website',
  TOO_MANY_WEBSITES: 'website',
  PDF_SOURCE_REJECTED: 'pdfs',
  PDF_TOO_LARGE: 'pdfs',
  FILE_TOO_LARGE: 'pdfs',
  SOURCE_FILE_UNREADABLE: 'pdfs',
  SOURCE_FILE_TOO_LARGE: 'pdfs',
  SOURCE_FILES_TOO_LARGE: 'pdfs',
  NOT_A_PDF: 'pdfs',
  TOO_MANY_SOURCES: 'pdfs',
  INSTAGRAM_PROFILE_NOT_FOUND: 'instagram',
  INSTAGRAM_PRIVATE_PROFILE: 'instagram',
  TOO_MANY_INSTAGRAM: 'instagram',
  INSTRUCTIONS_TOO_LONG: 'instructions',
  INVALID_WORKSPACE: 'workspaceId',
  WORKSPACE_NOT_FOUND: 'workspaceId',
};

const DUPLICATE =
  'A brand with this website already exists. Open it from Brands, or tick "Allow a duplicate" to make another on purpose.';

/** An engine or service refusal beside the field it is about. */
export function fieldErrors(error: BridgeError): BrandErrors {
  if (error.code === 'VALIDATION_ERROR') {
    const out: BrandErrors = {};
    // `createBrand: website: must be …; pdfs.0: …` (the channel, then each field).
    for (const part of error.message.replace(/^createBrand: /, '').split('; ')) {
      const match = /^(website|instagram|pdfs|instructions|workspaceId)(\.\d+)?: (.*)$/.exec(part);
      const said = errorWords({ code: 'VALIDATION_ERROR', message: part }, FIELD_LABELS);
      if (match) {
        const field = match[1] as BrandField;
        const line = match[2] ? `Line ${Number(match[2].slice(1)) + 1}: ` : '';
        out[field] ??= `${line}${said}`;
      } else out.form = out.form ? `${out.form} ${said}` : said;
    }
    return out;
  }
  if (error.code === 'DUPLICATE_BRAND') return { website: DUPLICATE };
  const field = byCode[error.code] ?? guess(error.message);
  return { [field]: errorWords(error, FIELD_LABELS) };
}

/** The engine's source errors say which source first ("A PDF needs…", "The website needs…"). */
function guess(message: string): BrandField {
  const text = message.replace(/^[A-Z][A-Z0-9_]*: /, '');
  if (/^(A PDF|PDF)\b/i.test(text)) return 'pdfs';
  if (/^The Instagram|^The social/i.test(text)) return 'instagram';
  if (/^The website/i.test(text)) return 'website';
  if (/\bpdf\b/i.test(text)) return 'pdfs';
  if (/instagram|social/i.test(text)) return 'instagram';
  if (/workspace/i.test(text)) return 'workspaceId';
  if (/website/i.test(text)) return 'website';
  return 'form';
}

// A brand creation as the user asked for it, checked against every limit before anything is
// sent, and fixed into a plain value the queue can persist: local PDFs by absolute path,
// size and content hash (so a resumed creation knows the file is still the one asked for),
// and a hash of the whole request that names "the same creation" across runs.
import { MAX_SOURCE_FILE_BYTES, MAX_SOURCE_TOTAL_BYTES } from '../api/assumed.ts';
import { workspaceIdProblem } from '../account/workspace-id.ts';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { CodedError } from '../core/coded-error.ts';

/** What the caller lists, in order (the service reads sources in the order given). */
export type SourceSpec =
  | { kind: 'website'; url: string }
  | { kind: 'instagram'; url: string }
  /** A PDF: an https URL, or a local file to stage first. */
  | { kind: 'pdf'; url: string }
  | { kind: 'pdf'; path: string };

export interface BrandCreationInput {
  sources: SourceSpec[];
  instructions?: string;
  allowDuplicate?: boolean;
  /** A team workspace ID; omitted for the personal workspace. */
  workspaceId?: string;
  /** Base of relative file paths (default: the process's working directory). */
  cwd?: string;
}

/** A local file, as checked when the creation was asked for. */
export const LocalSource = z.object({
  kind: z.literal('pdf'),
  path: z.string().min(1),
  size: z.number().int().min(0),
  sha256: z.string().length(64),
});
export type LocalSource = z.infer<typeof LocalSource>;

export const RemoteSource = z.object({
  kind: z.enum(['website', 'instagram', 'pdf']),
  url: z.string().min(1),
});
export type RemoteSource = z.infer<typeof RemoteSource>;

export const CreationSource = z.union([LocalSource, RemoteSource]);
export type CreationSource = z.infer<typeof CreationSource>;

/** The checked request: what the creation job carries. */
export const CreationRequest = z.object({
  sources: z.array(CreationSource).min(1),
  instructions: z.string().optional(),
  allowDuplicate: z.boolean(),
  workspaceId: z.string().optional(),
});
export type CreationRequest = z.infer<typeof CreationRequest>;

/** assumed: not in the interface document for POST /brands; the beta flow's bound (1-30 sources). */
export const MAX_SOURCES = 30;
/** The source-file limits of assumed.ts (100 MiB each, 256 MiB together). */
export const MAX_FILE_BYTES = MAX_SOURCE_FILE_BYTES;
export const MAX_TOTAL_FILE_BYTES = MAX_SOURCE_TOTAL_BYTES;
/** The interface document: instructions up to 4000 characters. */
export const MAX_INSTRUCTIONS = 4000;

/** A request that breaks a limit: nothing was sent. `code` names the rule. */
export class BrandCreationInputError extends CodedError {}

const fail = (code: string, message: string): never => {
  throw new BrandCreationInputError(code, message);
};

function checkUrl(value: string, what: string, httpsOnly: boolean): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const schemes = httpsOnly ? ['https:'] : ['https:', 'http:'];
  if (url === undefined || !schemes.includes(url.protocol) || url.hostname === '') {
    fail(
      'INVALID_URL',
      `${what} needs ${httpsOnly ? 'an https' : 'an http(s)'} URL, got "${value}".`,
    );
  }
  return value;
}

/** The size of a local PDF; a missing, unreadable or oversized file is one specific error. */
async function sizeOf(file: string): Promise<number> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(file);
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'error';
    return fail(
      'SOURCE_FILE_UNREADABLE',
      code === 'ENOENT' ? `PDF ${file}: no such file.` : `PDF ${file}: cannot be read (${code}).`,
    );
  }
  if (!stat.isFile()) fail('SOURCE_FILE_UNREADABLE', `PDF ${file}: not a file.`);
  if (stat.size > MAX_FILE_BYTES) {
    fail(
      'SOURCE_FILE_TOO_LARGE',
      `PDF ${file} is ${stat.size} bytes; a source file may be at most ${MAX_FILE_BYTES} bytes (100 MiB).`,
    );
  }
  return stat.size;
}

/** Reads the file once: it must start like a PDF; returns its content hash. */
async function pdfHash(file: string): Promise<string> {
  const hash = createHash('sha256');
  let head = Buffer.alloc(0);
  try {
    for await (const chunk of fs.createReadStream(file)) {
      const bytes = chunk as Buffer;
      if (head.length < 5) head = Buffer.concat([head, bytes.subarray(0, 5 - head.length)]);
      hash.update(bytes);
    }
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'error';
    fail('SOURCE_FILE_UNREADABLE', `PDF ${file}: cannot be read (${code}).`);
  }
  if (head.toString('latin1') !== '%PDF-') fail('NOT_A_PDF', `PDF ${file}: not a PDF file.`);
  return hash.digest('hex');
}

/**
 * Checks every limit the document (and docs/service.md) sets on a creation, reads local files once,
 * and returns the request to persist. Throws BrandCreationInputError; sends nothing.
 */
export async function checkCreationRequest(input: BrandCreationInput): Promise<CreationRequest> {
  const specs = input.sources;
  if (specs.length === 0) {
    fail(
      'NO_SOURCE',
      'A brand needs at least one source (a website, a PDF or an Instagram profile).',
    );
  }
  if (specs.length > MAX_SOURCES) {
    fail('TOO_MANY_SOURCES', `A brand takes at most ${MAX_SOURCES} sources, got ${specs.length}.`);
  }
  const count = (kind: string): number => specs.filter((s) => s.kind === kind).length;
  if (count('website') > 1) fail('TOO_MANY_WEBSITES', 'A brand takes at most one website.');
  if (count('instagram') > 1)
    fail('TOO_MANY_INSTAGRAM', 'A brand takes at most one Instagram profile.');
  if (input.instructions !== undefined && input.instructions.length > MAX_INSTRUCTIONS) {
    fail(
      'INSTRUCTIONS_TOO_LONG',
      `Instructions may be at most ${MAX_INSTRUCTIONS} characters, got ${input.instructions.length}.`,
    );
  }
  const workspaceProblem =
    input.workspaceId === undefined ? null : workspaceIdProblem(input.workspaceId);
  if (workspaceProblem !== null) fail('INVALID_WORKSPACE', workspaceProblem);
  const cwd = input.cwd ?? process.cwd();
  // Sizes first: a limit is refused before any file is read.
  const sizes = new Map<number, number>();
  let total = 0;
  for (const [index, spec] of specs.entries()) {
    if (spec.kind !== 'pdf' || !('path' in spec)) continue;
    const size = await sizeOf(path.resolve(cwd, spec.path));
    sizes.set(index, size);
    total += size;
  }
  if (total > MAX_TOTAL_FILE_BYTES) {
    fail(
      'SOURCE_FILES_TOO_LARGE',
      `The local files come to ${total} bytes; together they may be at most ${MAX_TOTAL_FILE_BYTES} bytes (256 MiB).`,
    );
  }
  const sources: CreationSource[] = [];
  for (const [index, spec] of specs.entries()) {
    if (spec.kind === 'website') {
      sources.push({ kind: 'website', url: checkUrl(spec.url, 'The website', false) });
    } else if (spec.kind === 'instagram') {
      sources.push({ kind: 'instagram', url: checkUrl(spec.url, 'The Instagram profile', true) });
    } else if ('url' in spec) {
      sources.push({ kind: 'pdf', url: checkUrl(spec.url, 'A PDF', true) });
    } else {
      const file = path.resolve(cwd, spec.path);
      const size = sizes.get(index) as number;
      sources.push({ kind: 'pdf', path: file, size, sha256: await pdfHash(file) });
    }
  }
  return {
    sources,
    ...(input.instructions ? { instructions: input.instructions } : {}),
    allowDuplicate: input.allowDuplicate === true,
    ...(input.workspaceId ? { workspaceId: input.workspaceId.toLowerCase() } : {}),
  };
}

/** Names "the same creation": equal for the same sources (same file bytes), options and workspace. */
export function creationHash(request: CreationRequest): string {
  const canonical = {
    sources: request.sources.map((s) =>
      'path' in s
        ? { kind: s.kind, path: s.path, sha256: s.sha256, size: s.size }
        : { kind: s.kind, url: s.url },
    ),
    instructions: request.instructions ?? null,
    allowDuplicate: request.allowDuplicate,
    workspaceId: request.workspaceId ?? null,
  };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/** The website of the request (for names in reports), or the first source. */
export function requestLabel(request: CreationRequest): string {
  const first = request.sources.find((s) => s.kind === 'website') ?? request.sources[0];
  if (first === undefined) return 'brand';
  return 'url' in first ? first.url : path.basename(first.path);
}

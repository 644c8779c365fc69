// Uploads: logo and image (authenticated and signed, multipart streamed from disk), remote
// image by URL, and staging a local file for a brand source (assumed, docs/service.md).
import { MAX_SOURCE_FILE_BYTES } from './assumed.ts';
import fs from 'node:fs';
import { MAX_UPLOAD_BYTES, MULTIPART_FILE_FIELD, STAGING_PATH } from './assumed.ts';
import { multipartBytesBody, multipartFileBody, rawBytesBody, rawFileBody } from './file-body.ts';
import { methodOf, type Endpoint } from './endpoint.ts';
import { seg, type Http, type ResendRule, type UploadProgress } from './http.ts';
import { invalidInput, requireHttpUrl, requireLength, requireUuid } from './input.ts';
import { ImageUploadResult, LogoUpdate, StagedUpload } from './schemas.ts';
import type { CallOptions } from './brands.ts';

export interface UploadOptions extends CallOptions {
  /** Bytes of the request sent so far, of its length. */
  onProgress?: (progress: UploadProgress) => void;
}

export interface LocalFile {
  path: string;
  /** The name the service sees; defaults to the file's base name. */
  fileName?: string;
  /** Defaults to the type read from the file's bytes. */
  mimeType?: string;
  /**
   * The file's bytes, already read (and checked) by the caller: sent as they are, with no
   * further read of `path`, which then only names the file.
   */
  content?: Uint8Array;
}

interface ReadyFile {
  path: string;
  fileName: string;
  mimeType: string;
  size: number;
  content: Uint8Array | undefined;
}

/** Reads size and type once, and refuses a file over the limit before sending anything. */
async function prepareFile(
  file: LocalFile,
  endpoint: string,
  limit: number | undefined,
): Promise<ReadyFile> {
  if (file.content !== undefined) return prepareContent(file, file.content, endpoint, limit);
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(file.path);
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'error';
    throw invalidInput(
      endpoint,
      code === 'ENOENT' ? `${file.path} does not exist.` : `${file.path} cannot be read (${code}).`,
    );
  }
  if (!stat.isFile()) throw invalidInput(endpoint, `${file.path} is not a file.`);
  const size = stat.size;
  if (limit !== undefined && size > limit) {
    throw invalidInput(
      endpoint,
      `${file.path} is ${size} bytes; the service takes at most ${limit} bytes (10 MB).`,
    );
  }
  const mimeType = file.mimeType ?? (await sniffMimeType(file.path));
  return { path: file.path, fileName: fileNameOf(file), mimeType, size, content: undefined };
}

async function prepareContent(
  file: LocalFile,
  content: Uint8Array,
  endpoint: string,
  limit: number | undefined,
): Promise<ReadyFile> {
  if (limit !== undefined && content.length > limit) {
    throw invalidInput(
      endpoint,
      `${file.path} is ${content.length} bytes; the service takes at most ${limit} bytes (10 MB).`,
    );
  }
  const mimeType = file.mimeType ?? (await sniffContentType(content));
  const size = content.length;
  return { path: file.path, fileName: fileNameOf(file), mimeType, size, content };
}

function fileNameOf(file: LocalFile): string {
  return file.fileName ?? file.path.split(/[\\/]/).pop() ?? 'file';
}

/** The type read from the file's first bytes (loaded on demand: most callers know the type). */
async function sniffMimeType(path: string): Promise<string> {
  const { fileTypeFromFile } = await import('file-type');
  return (await fileTypeFromFile(path))?.mime ?? 'application/octet-stream';
}

async function sniffContentType(content: Uint8Array): Promise<string> {
  const { fileTypeFromBuffer } = await import('file-type');
  return (await fileTypeFromBuffer(content))?.mime ?? 'application/octet-stream';
}

/** Progress of the request body (the file plus a few hundred bytes of multipart framing). */
function progressOf(options: UploadOptions): ((p: UploadProgress) => void) | undefined {
  const report = options.onProgress;
  return report ? (p) => report({ transferred: p.transferred, total: p.total }) : undefined;
}

/**
 * Sends a local file as multipart to `endpoint` (10 MB at most). By default with the key and
 * re-sendable; a signed endpoint's token is the credential and single-use (`auth: false`,
 * `resend: 'once'`).
 */
async function sendFile<T extends typeof ImageUploadResult | typeof LogoUpdate>(
  http: Http,
  endpoint: Endpoint,
  path: string,
  schema: T,
  local: LocalFile,
  options: UploadOptions,
  how: { auth?: boolean; resend?: ResendRule; fields?: Record<string, string> } = {},
) {
  const file = await prepareFile(local, endpoint, MAX_UPLOAD_BYTES);
  const fields = how.fields ?? {};
  return http.call({
    method: methodOf(endpoint),
    endpoint,
    path,
    auth: how.auth ?? true,
    body:
      file.content === undefined
        ? multipartFileBody(file, MULTIPART_FILE_FIELD, fields, endpoint)
        : multipartBytesBody(file, file.content, MULTIPART_FILE_FIELD, fields),
    schema,
    resend: how.resend ?? 'resend',
    transfer: true,
    onUploadProgress: progressOf(options),
    signal: options.signal,
  });
}

/** A signed upload: the token in the path is the credential, and it is single-use. */
const SIGNED = { auth: false, resend: 'once' } as const;

/** Sets the brand's logo (PNG, JPEG, WebP, SVG, AVIF; 10 MB). A PUT: safe to re-send. */
export async function uploadLogo(
  http: Http,
  brandId: string,
  file: LocalFile,
  options: UploadOptions = {},
): Promise<LogoUpdate> {
  const endpoint: Endpoint = 'PUT /brands/{id}/logo/file';
  requireUuid(brandId, 'brand ID', endpoint);
  return sendFile(http, endpoint, `/brands/${seg(brandId)}/logo/file`, LogoUpdate, file, options);
}

/** The token is the credential and single-use: no auth header, not re-sent after an uncertain send. */
export async function uploadLogoSigned(
  http: Http,
  brandId: string,
  token: string,
  file: LocalFile,
  options: UploadOptions = {},
): Promise<LogoUpdate> {
  const endpoint: Endpoint = 'PUT /brands/{id}/logo/file/signed/{token}';
  requireUuid(brandId, 'brand ID', endpoint);
  requireLength(token, 'upload token', 1, 4096, endpoint);
  const path = `/brands/${seg(brandId)}/logo/file/signed/${seg(token)}`;
  return sendFile(http, endpoint, path, LogoUpdate, file, options, SIGNED);
}

/**
 * Uploads a local image into a brand's Library (PNG, JPEG, WebP, AVIF; 10 MB). Re-sending
 * is safe: the service answers an exact match with `existing: true` instead of a copy.
 */
export async function uploadImage(
  http: Http,
  brandId: string,
  file: LocalFile,
  options: UploadOptions = {},
): Promise<ImageUploadResult> {
  const endpoint: Endpoint = 'POST /images/uploads/file';
  requireUuid(brandId, 'brand ID', endpoint);
  return sendFile(http, endpoint, '/images/uploads/file', ImageUploadResult, file, options, {
    fields: { brandSessionId: brandId },
  });
}

/** The token is the credential and single-use: no auth header, not re-sent after an uncertain send. */
export async function uploadImageSigned(
  http: Http,
  token: string,
  file: LocalFile,
  options: UploadOptions = {},
): Promise<ImageUploadResult> {
  const endpoint: Endpoint = 'POST /images/uploads/file/signed/{token}';
  requireLength(token, 'upload token', 1, 4096, endpoint);
  const path = `/images/uploads/file/signed/${seg(token)}`;
  return sendFile(http, endpoint, path, ImageUploadResult, file, options, SIGNED);
}

/** Has the service fetch an image by URL into a brand (shape: docs/service.md, Remote image). Deduplicated like uploads. */
export async function uploadRemoteImage(
  http: Http,
  input: { imageUrl: string; brandId: string },
  options: CallOptions = {},
): Promise<ImageUploadResult> {
  const endpoint = 'POST /images/uploads';
  requireHttpUrl(input.imageUrl, 'image URL', endpoint);
  requireUuid(input.brandId, 'brand ID', endpoint);
  return http.call({
    method: 'POST',
    endpoint,
    path: '/images/uploads',
    json: { imageUrl: input.imageUrl, brandSessionId: input.brandId },
    schema: ImageUploadResult,
    resend: 'resend',
    assumedFeature: 'uploading images by URL',
    signal: options.signal,
  });
}

/** Staged source files: the limit of assumed.ts. */
const MAX_STAGED_BYTES = MAX_SOURCE_FILE_BYTES;

/**
 * Stages a local file for a brand source: `POST /uploads` then the raw bytes by `PUT
 * uploadUrl` (docs/service.md, Staging a local file). Returns the upload ID for `{kind, uploadId}`.
 * Re-sending either step is safe: an unused staged upload only expires.
 */
export async function stageFile(
  http: Http,
  local: LocalFile,
  options: UploadOptions & { workspaceId?: string } = {},
): Promise<StagedUpload> {
  const endpoint = `POST ${STAGING_PATH}`;
  const file = await prepareFile(local, endpoint, MAX_STAGED_BYTES);
  const staged = await http.call({
    method: 'POST',
    endpoint,
    path: STAGING_PATH,
    json: {
      fileName: file.fileName,
      mimeType: file.mimeType,
      size: file.size,
      ...(options.workspaceId ? { workspaceId: options.workspaceId } : {}),
    },
    schema: StagedUpload,
    resend: 'resend',
    assumedFeature: 'staging local files (pass a public https URL instead)',
    signal: options.signal,
  });
  const target = new URL(staged.uploadUrl, http.baseUrl + '/');
  if (target.protocol !== 'https:' && target.protocol !== 'http:') {
    throw invalidInput(endpoint, 'The service gave an upload URL that is not http(s).');
  }
  await http.call({
    method: 'PUT',
    endpoint: 'PUT {uploadUrl}',
    path: target.toString(),
    // The key goes only to the service's own origin, never to a storage host.
    auth: target.origin === http.origin,
    body:
      file.content === undefined
        ? rawFileBody(file, 'PUT {uploadUrl}')
        : rawBytesBody(file.content, file.mimeType),
    schema: null,
    resend: 'resend',
    transfer: true,
    onUploadProgress: progressOf(options),
    signal: options.signal,
  });
  return staged;
}

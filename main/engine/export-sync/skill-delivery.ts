// One Skill ZIP from the service into a brand's `Brand Skill/`: fetched into a temp file in
// the data dir, checked, installed by the journaled swap, then deleted. The temp file's path
// and skillId are job facts before the first byte arrives, so a run after a crash resumes
// the same `.part` (Range) or installs the complete file it finds. Shared by exports and
// beta Brand Skills.
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { isApiError, type ApiClient } from '../api/index.ts';
import { ArchiveError, SkillInstallError } from '../export-parts/errors.ts';
import { installSkillArchive } from '../export-parts/skill-install.ts';
import type { InstallProgress, InstalledSkill } from '../export-parts/skill-install.ts';
import { PermanentError, TransientError } from '../queue/index.ts';
import type { JobContext } from '../queue/index.ts';
import { activeJobStates } from '../store/index.ts';
import type { Store } from '../store/index.ts';

/** Downloads wait here, in the data dir: extraction copies them, so any volume will do. */
export const SKILL_DOWNLOADS_DIR = 'skill-downloads';
/** The job fact naming the temp file of the current download. */
export const DOWNLOAD_FACT = 'skillDownload';

export type SkillSource = { kind: 'url'; url: string } | { kind: 'base64'; content: string };

export type DeliveryProgress =
  { phase: 'download'; received: number; total: number | undefined } | InstallProgress;

export interface DeliverSkillOptions {
  client: ApiClient;
  ctx: JobContext;
  dataDir: string;
  brandDir: string;
  skillId: string;
  /** Names the temp file together with the skillId: `export-<brandId>`, `beta-<id>`. */
  owner: string;
  source: SkillSource;
  keepVersions: number;
  onProgress?: (progress: DeliveryProgress) => void;
}

interface DownloadFact {
  skillId: string;
  path: string;
  /** Hash of where the bytes come from: a `.part` of another source is not resumed. */
  from: string;
  /** Set once the file is complete (its length was checked against Content-Length). */
  bytes?: number;
}

// A Skill ID becomes part of a file and a folder name: nothing but a plain ID gets through.
const PLAIN_ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;
// Damage a new download can cure; every other archive error is the archive itself.
const DAMAGED_IN_TRANSIT = new Set(['TRUNCATED', 'LENGTH_MISMATCH', 'CRC_MISMATCH']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function downloadsDir(dataDir: string): string {
  return path.join(dataDir, SKILL_DOWNLOADS_DIR);
}

/** Downloads (or decodes) the ZIP and installs it; throws PermanentError/TransientError/ApiError. */
export async function deliverSkill(options: DeliverSkillOptions): Promise<InstalledSkill> {
  const { ctx, skillId } = options;
  if (!PLAIN_ID.test(skillId) || !PLAIN_ID.test(options.owner)) {
    throw new PermanentError(
      'INVALID_SKILL_ID',
      `The service named the Skill ${JSON.stringify(skillId)}, which is not a plain ID; nothing was installed.`,
    );
  }
  const dir = downloadsDir(options.dataDir);
  await mkdir(dir, { recursive: true });
  const dest = path.join(dir, `${options.owner}-${skillId}.zip`);
  const from = sourceHash(options.source);
  const before = readDownloadFact(ctx.facts);
  // A download of another Skill version left by an earlier run is of no use now.
  if (before !== undefined && before.path !== dest) await removeDownload(dir, before.path);
  // Resuming splices bytes: only onto a part of the same source (a URL may now give a
  // rebuilt ZIP of the same Skill). A complete file of the same Skill is whole either way.
  if (before?.path === dest && before.from !== from) await rm(`${dest}.part`, { force: true });
  let bytes = before?.path === dest ? before.bytes : undefined;
  if (bytes === undefined || !(await isFile(dest))) {
    // Remembered before the first byte: a crash from here on leaves a file a rerun finds.
    ctx.remember({ [DOWNLOAD_FACT]: { skillId, path: dest, from } satisfies DownloadFact });
    bytes = (await isFile(dest))
      ? (await stat(dest)).size // complete (renamed into place after its length check)
      : await fetchZip(options, dest);
    ctx.remember({ [DOWNLOAD_FACT]: { skillId, path: dest, from, bytes } satisfies DownloadFact });
  }
  let installed: InstalledSkill;
  try {
    installed = await installSkillArchive({
      zipPath: dest,
      brandDir: options.brandDir,
      skillId,
      keepVersions: options.keepVersions,
      expectedSize: bytes,
      signal: ctx.signal,
      onProgress: (p) => {
        if (p.phase === 'extract') ctx.progress(p.bytesDone, p.bytesTotal);
        options.onProgress?.(p);
      },
    });
  } catch (error) {
    if (error instanceof ArchiveError) {
      // Hostile or damaged: never installed, and not kept for a rerun either.
      await removeDownload(dir, dest);
      ctx.remember({ [DOWNLOAD_FACT]: null });
    }
    throw installFailure(error);
  }
  await removeDownload(dir, dest);
  ctx.remember({ [DOWNLOAD_FACT]: null });
  return installed;
}

async function fetchZip(options: DeliverSkillOptions, dest: string): Promise<number> {
  const { ctx, source } = options;
  if (source.kind === 'url') {
    try {
      const result = await options.client.downloadToFile(source.url, dest, {
        signal: ctx.signal,
        onProgress: ({ received, total }) => {
          ctx.progress(received, total ?? null);
          options.onProgress?.({ phase: 'download', received, total });
        },
      });
      return result.bytes;
    } catch (error) {
      throw downloadFailure(error);
    }
  }
  const text = source.content.replace(/\s+/g, '');
  if (text.length % 4 !== 0 || !BASE64.test(text)) {
    throw new PermanentError(
      'INVALID_ZIP_CONTENT',
      'The service sent the Skill ZIP as contentBase64, but it is not valid base64; nothing was installed.',
    );
  }
  const data = Buffer.from(text, 'base64');
  // Written beside its final name and renamed: a complete file is the only kind found there.
  const part = `${dest}.part`;
  const handle = await open(part, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(part, dest);
  options.onProgress?.({ phase: 'download', received: data.length, total: data.length });
  return data.length;
}

/**
 * A download that failed after its own bounded tries (cut off, a host that refused or asked to
 * wait too long) fails this delivery: the job is not run again in this sync, whose end names
 * the brand and the reason; the next sync (a later pass, the periodic check) tries again and
 * resumes what arrived. A network failure (offline) and an abort stay as they are.
 */
export function downloadFailure(error: unknown): unknown {
  if (!isApiError(error)) return error;
  const data = (error.data ?? {}) as { host?: unknown; tries?: unknown };
  const host = typeof data.host === 'string' ? data.host : undefined;
  if (error.code === 'DOWNLOAD_CUT_OFF') {
    const from = host === undefined ? '' : ` from ${host}`;
    return new PermanentError(
      error.code,
      `the download${from} was cut off ${String(data.tries)} times; tried again at the next sync`,
      { cause: error, data: error.data },
    );
  }
  if (error.code === 'DOWNLOAD_FAILED' || error.code === 'INCOMPLETE_DOWNLOAD') {
    const why = error.message.replace(/;? ?it is tried again later\.$/, '').replace(/\.$/, '');
    return new PermanentError(
      error.code,
      `${why.charAt(0).toLowerCase()}${why.slice(1)}; tried again at the next sync`,
      { cause: error, ...(error.data === undefined ? {} : { data: error.data }) },
    );
  }
  return error;
}

/** What a failed install means for the job (the previous copy stays in every case). */
export function installFailure(error: unknown): unknown {
  if (error instanceof ArchiveError) {
    if (DAMAGED_IN_TRANSIT.has(error.code)) {
      return new TransientError(
        error.code,
        `The downloaded Skill archive is damaged (${error.message}); it is downloaded again. The previous Brand Skill/ stays.`,
        { cause: error },
      );
    }
    return new PermanentError(
      error.code,
      `The Skill archive was rejected: ${error.message}. The previous Brand Skill/ stays as it was.`,
      { cause: error, ...(error.entry === undefined ? {} : { data: { entry: error.entry } }) },
    );
  }
  if (error instanceof SkillInstallError) {
    if (error.code === 'SWAP_FAILED') {
      return new TransientError(error.code, error.message, { cause: error });
    }
    if (error.code === 'ABORTED') return error;
    return new PermanentError(error.code, error.message, { cause: error });
  }
  return error;
}

/** Deletes the temp file a run of this job left (a crash after the install, say). */
export async function discardDownload(ctx: JobContext, dataDir: string): Promise<void> {
  const fact = readDownloadFact(ctx.facts);
  if (fact === undefined) return;
  await removeDownload(downloadsDir(dataDir), fact.path);
  ctx.remember({ [DOWNLOAD_FACT]: null });
}

/**
 * Deletes temp files named `<prefix>…` that no active job of `kind` names: left by a job
 * that ended without its cleanup (it died too often, or was cancelled).
 */
export async function sweepDownloads(
  store: Store,
  dataDir: string,
  kind: string,
  prefix: string,
): Promise<void> {
  const dir = downloadsDir(dataDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  if (names.length === 0) return;
  const kept = new Set<string>();
  for (const state of activeJobStates) {
    for (const job of store.jobs.list({ kind, state, limit: 1000 })) {
      const fact = readDownloadFact(job.facts);
      if (fact !== undefined) kept.add(path.basename(fact.path));
    }
  }
  for (const name of names) {
    const file = name.endsWith('.part') ? name.slice(0, -'.part'.length) : name;
    if (name.startsWith(prefix) && !kept.has(file)) await rm(path.join(dir, name), { force: true });
  }
}

function readDownloadFact(facts: Readonly<Record<string, unknown>>): DownloadFact | undefined {
  const value = facts[DOWNLOAD_FACT] as Partial<DownloadFact> | null | undefined;
  if (value == null || typeof value.path !== 'string' || typeof value.skillId !== 'string') {
    return undefined;
  }
  return {
    skillId: value.skillId,
    path: value.path,
    from: typeof value.from === 'string' ? value.from : '',
    ...(typeof value.bytes === 'number' ? { bytes: value.bytes } : {}),
  };
}

/** Not the URL itself: a signed URL is a credential of sorts, kept out of the job's facts. */
function sourceHash(source: SkillSource): string {
  const text = source.kind === 'url' ? `url:${source.url}` : `base64:${source.content}`;
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** Removes a temp file and its `.part`; only ever inside the downloads folder. */
export async function removeDownload(dir: string, file: string): Promise<void> {
  if (path.dirname(path.resolve(file)) !== path.resolve(dir)) return;
  await rm(file, { force: true });
  await rm(`${file}.part`, { force: true });
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

// The Activity page as an inbox: what needs the person, what moves now, and what changed for
// them, in words. Housekeeping (brand listings, Library refreshes, credit and edit checks,
// folder scans, Brand Skill checks) is not news: it folds into one "checked" line, and the
// brand folders made on the way fold into one "Set up N brand folders" line.
import type { ActivityDoc, JobDoc } from '../../../../contract/index.ts';
import { plural } from './format.ts';

/** Jobs that keep the mirror current without changing anything the person sees by themselves. */
const HOUSEKEEPING = new Set([
  'refresh-brands',
  'refresh-account',
  'library.sync',
  'edits.refresh',
  'folder-scan',
  'export.sync',
  'brand-skill.sync',
]);

export function isHousekeeping(job: Pick<JobDoc, 'kind'>): boolean {
  return HOUSEKEEPING.has(job.kind);
}

/** How many things wait for the person: failures to act on and Brand Edits to review. */
export function needsYouCount(doc: ActivityDoc | null | undefined): number {
  if (!doc) return 0;
  return doc.failed.length + doc.editsWaiting.reduce((n, e) => n + e.count, 0);
}

/** A job's name for a person ("Upload of Lumen Labs/poster.png"). */
export function jobTitle(job: JobDoc): string {
  switch (job.kind) {
    case 'folder-upload':
      return `Upload of ${job.subject}`;
    case 'folder-logo':
      return `Logo of ${job.subject}`;
    case 'brand.create':
      return `Creating ${job.subject}`;
    default:
      return `${job.area.charAt(0).toUpperCase()}${job.area.slice(1)}: ${job.subject}`;
  }
}

export interface DoneItem {
  key: string;
  at: string;
  text: string;
  tone: 'info' | 'warn' | 'error';
  /** What a folded line stands for, shown behind a disclosure (the folders' names). */
  details?: string[];
}

/** The engine's note of a brand folder it made: one "Set up" line for all of them. */
const FOLDER_CREATED = 'BRAND_FOLDER_CREATED';
const FOLDER_NAME = /^Created the folder "(.+)" for brand /;

/** The folder part of an upload's subject ("Lumen Labs/poster.png" → "Lumen Labs"). */
function folderOf(subject: string): string {
  const slash = subject.indexOf('/');
  return slash < 0 ? subject : subject.slice(0, slash);
}

/**
 * Log entries left out of "Done": routine, or a failure that "Needs you" already lists with its
 * Retry (they stay in the engine's log).
 */
const QUIET_CODES = new Set(['BRAND_SKILL_UNAVAILABLE', 'FEATURE_UNAVAILABLE', 'FILE_SYNC_ERROR']);

/**
 * The engine logs a failed job as "<area> <subject>: <reason>". A failure still standing is in
 * "Needs you" with its Retry; one since retried or settled is no longer news.
 */
const JOB_FAILURE =
  /^(file|logo|folder|library|credits|Brand Skill|Brand Edits|brand creation|refresh-brands|refresh-account|library\.sync|edits\.refresh|folder-scan|export\.sync|brand-skill\.sync) .*?: /;

/** A notice in the person's words: a Brand Skill "installed", not "updated to Skill <uuid>". */
function noticeWords(code: string, message: string): string {
  if (code === 'BRAND_SKILL_INSTALLED') {
    const m = /^Brand Skill of "(.+)" updated to Skill \S+ \((.+)\)\.?$/.exec(message);
    if (m) return `Brand Skill of ${m[1]} installed (${m[2]})`;
  }
  return message;
}

/**
 * What changed for the person, newest first: uploads grouped per folder ("12 files uploaded
 * to Lumen Labs"), logos, brands created, and the engine's notices in their words (a Brand
 * Skill installed, an edit applied, an image edit with its cost).
 */
export function doneItems(doc: ActivityDoc): DoneItem[] {
  const items: DoneItem[] = [];
  const uploads = new Map<string, { count: number; at: string }>();
  for (const job of doc.done) {
    if (isHousekeeping(job)) continue;
    const at = job.finishedAt ?? job.updatedAt ?? '';
    if (job.kind === 'folder-upload') {
      const folder = folderOf(job.subject);
      const group = uploads.get(folder) ?? { count: 0, at };
      group.count += 1;
      if (at > group.at) group.at = at;
      uploads.set(folder, group);
    } else if (job.kind === 'folder-logo') {
      items.push({ key: `job-${job.id}`, at, text: `Logo of ${job.subject} sent`, tone: 'info' });
    } else if (job.kind === 'brand.create') {
      items.push({ key: `job-${job.id}`, at, text: `${job.subject} created`, tone: 'info' });
    } else {
      items.push({ key: `job-${job.id}`, at, text: `${jobTitle(job)} done`, tone: 'info' });
    }
  }
  for (const [folder, group] of uploads) {
    items.push({
      key: `uploads-${folder}`,
      at: group.at,
      text: `${plural(group.count, 'file')} uploaded to ${folder}`,
      tone: 'info',
    });
  }
  const folders = { names: [] as string[], at: '' };
  for (const entry of doc.log) {
    if (QUIET_CODES.has(entry.code)) continue;
    if (entry.code === FOLDER_CREATED) {
      const name = FOLDER_NAME.exec(entry.message)?.[1] ?? entry.message;
      if (!folders.names.includes(name)) folders.names.push(name);
      if ((entry.at ?? '') > folders.at) folders.at = entry.at ?? '';
      continue;
    }
    if (entry.level !== 'info' && JOB_FAILURE.test(entry.message)) continue;
    items.push({
      key: `log-${entry.id}`,
      at: entry.at ?? '',
      text: noticeWords(entry.code, entry.message),
      tone: entry.level === 'error' ? 'error' : entry.level === 'warn' ? 'warn' : 'info',
    });
  }
  if (folders.names.length > 0) {
    items.push({
      key: 'folders',
      at: folders.at,
      text:
        folders.names.length === 1
          ? `Set up the folder ${folders.names[0]}`
          : `Set up ${plural(folders.names.length, 'brand folder')}`,
      tone: 'info',
      details: folders.names.sort((a, b) => a.localeCompare(b)),
    });
  }
  return items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

/** When the service was last checked (the newest finished housekeeping job), or null. */
export function lastChecked(doc: ActivityDoc): string | null {
  let last: string | null = null;
  for (const job of doc.done) {
    if (!isHousekeeping(job)) continue;
    const at = job.finishedAt ?? null;
    if (at !== null && (last === null || at > last)) last = at;
  }
  return last;
}

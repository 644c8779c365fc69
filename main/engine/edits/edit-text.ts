// A Brand Edit as text for people: its state, the question it asks, and its change set, with
// the markdown hunks as a unified diff. Plain lines, so the CLI, notices and logs share them.
import { describeEditState, type EditDoc } from './edit-doc.ts';

/** Unified-diff markers for the line kinds seen; any other kind is shown with `?`. */
const MARKERS: Record<string, string> = {
  context: ' ',
  add: '+',
  added: '+',
  addition: '+',
  insert: '+',
  delete: '-',
  deleted: '-',
  deletion: '-',
  remove: '-',
  removed: '-',
};

function marker(kind: string | null): string {
  return kind !== null && Object.hasOwn(MARKERS, kind) ? (MARKERS[kind] as string) : '?';
}

function value(v: unknown): string {
  if (v === null || v === undefined) return '(none)';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function range(start: number | null, count: number | null): string {
  return `${start ?? '?'},${count ?? '?'}`;
}

function bounds(b: { min: number | null; max: number | null } | null, what: string): string | null {
  if (b === null) return null;
  if (b.max === 0) return null;
  return `${b.min ?? 0}-${b.max ?? 'any'} ${what}`;
}

/** What the question accepts, e.g. "text (1-10000 characters, required); 0-9 images". */
export function describeAccepts(accepts: NonNullable<EditDoc['interaction']>['accepts']): string {
  if (accepts === null) return 'not said';
  const parts: string[] = [];
  if (accepts.text) {
    const t = accepts.text;
    const size =
      t.minLength !== null || t.maxLength !== null
        ? `${t.minLength ?? 0}-${t.maxLength ?? 'any'} characters`
        : 'any length';
    parts.push(`text (${size}${t.required ? ', required' : ', optional'})`);
  }
  const images = bounds(accepts.images, 'images');
  if (images) parts.push(images);
  const sources = bounds(accepts.sources, 'sources');
  if (sources) parts.push(sources);
  return parts.length > 0 ? parts.join('; ') : 'nothing';
}

/** The unified diff of one markdown change: a header, then each hunk. */
export function markdownDiff(change: EditDoc['markdownChanges'][number]): string[] {
  const file = change.path ?? '(unnamed file)';
  const lines = [`--- a/${file}`, `+++ b/${file}`];
  for (const hunk of change.hunks) {
    lines.push(
      `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`,
    );
    for (const line of hunk.lines) {
      lines.push(`${marker(line.kind)}${line.text}`);
      if (line.noNewlineAtEndOfFile) lines.push('\\ No newline at end of file');
    }
  }
  if (change.truncated) lines.push('… (the service shortened this diff)');
  return lines;
}

/** Every line of `edits show` after the header fields. */
export function editChangeLines(doc: EditDoc): string[] {
  const out: string[] = [];
  if (doc.interaction) {
    const q = doc.interaction;
    out.push('', `Question${q.kind ? ` (${q.kind})` : ''}:`);
    out.push(`  Subject: ${q.subject ?? '(none)'}`);
    out.push(`  Prompt:  ${q.prompt ?? '(none)'}`);
    out.push(`  Accepts: ${describeAccepts(q.accepts)}`);
  }
  if (doc.profileChanges.length > 0) {
    out.push('', 'Profile changes:');
    for (const c of doc.profileChanges) {
      out.push(
        `  ${c.path ?? '(field)'}: ${value(c.previous)} → ${value(c.next)}${c.operation ? ` (${c.operation})` : ''}`,
      );
    }
  }
  if (doc.markdownChanges.length > 0) {
    out.push('', 'Markdown changes:');
    for (const c of doc.markdownChanges) {
      const counts = `+${c.additions ?? '?'} -${c.deletions ?? '?'}`;
      out.push(`  ${c.path ?? '(unnamed file)'} (${c.operation ?? 'change'}, ${counts})`);
      out.push(...markdownDiff(c).map((line) => `    ${line}`));
    }
  }
  if (doc.assetChanges.length > 0) {
    out.push('', 'Asset changes:');
    for (const c of doc.assetChanges) {
      out.push(
        `  ${c.role ?? c.kind ?? 'asset'}: ${c.previousAssetId ?? '(none)'} → ${c.nextAssetId ?? '(none)'}${c.operation ? ` (${c.operation})` : ''}`,
      );
    }
  }
  if (
    doc.profileChanges.length + doc.markdownChanges.length + doc.assetChanges.length === 0 &&
    doc.status !== 'input_required'
  ) {
    out.push('', 'No changes listed (yet).');
  }
  return out;
}

/** The state line: "awaiting_approval (the candidate is ready: apply it or discard it)". */
export function editStateLine(doc: EditDoc): string {
  return `${doc.status} (${describeEditState(doc.status)})`;
}

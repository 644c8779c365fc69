// Every file a comment cites is in the repository: the service's interface and the product's
// brief live outside it, so a comment must point at our own account of them (docs/), and a
// comment naming a source file must name one that still exists. The comments are found by
// TypeScript's own parser (a path inside a string or a regular expression is not a citation).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

const ROOTS = ['main', 'contract', 'preload', 'renderer', 'simulator', 'bin', 'test', 'bench'];
const SOURCE = /\.(ts|js|mjs|cjs|svelte)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'results', 'screenshots']);

/**
 * A cited file: a path whose last part has one of our files' extensions (`docs/service.md`,
 * `main/engine/queue/job-queue.ts`), or a bare name that can only be a file of ours: a source module
 * (`http.ts`) or a capitalised markdown file (`INTERFACE.md`). Lower-case markdown names and
 * paths under folders we do not have are the contents of a Brand Skill or examples.
 */
const CITATION =
  /(?<![\w@.:/$-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w-][\w.-]*\.(?:md|ts|js|mjs|cjs|svelte|json|py|yml))(?![\w/-])/g;
const BARE = /^(?:[A-Z][\w.-]*\.md|[\w.-]+\.(?:ts|svelte))$/;

/** The file a Brand Skill holds (the service's format), named in comments; not a file of ours. */
const SKILL_FILES = new Set(['SKILL.md']);

export interface Citation {
  file: string;
  line: number;
  cited: string;
}

/** The comments of a TypeScript or JavaScript text, with the offset each starts at. */
export function commentsOf(text: string, fileName = 'x.ts'): { pos: number; text: string }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const seen = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined): void => {
    for (const r of ranges ?? []) seen.set(r.pos, text.slice(r.pos, r.end));
  };
  const visit = (node: ts.Node): void => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    node.forEachChild(visit);
  };
  visit(source);
  collect(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return [...seen].map(([pos, body]) => ({ pos, text: body }));
}

/** The comments of a Svelte file: those of its scripts, and its markup's `<!-- -->`. */
function svelteComments(text: string): { pos: number; text: string }[] {
  const out: { pos: number; text: string }[] = [];
  for (const m of text.matchAll(/(<script[^>]*>)([\s\S]*?)<\/script>/g)) {
    const start = (m.index ?? 0) + (m[1] as string).length;
    for (const c of commentsOf(m[2] as string)) out.push({ pos: start + c.pos, text: c.text });
  }
  for (const m of text.matchAll(/<!--[\s\S]*?-->/g)) out.push({ pos: m.index ?? 0, text: m[0] });
  return out;
}

/**
 * The folders a path in `file`'s comments is read from: the citing file's folder and every
 * folder above it up to the repository's root (`views/brand-lookup.ts` in a comment of
 * main/engine/folder-parts is main/engine/views/brand-lookup.ts).
 */
function bases(file: string): string[] {
  const out: string[] = [];
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    out.push(dir);
    if (dir === '.') return out;
  }
}

/**
 * Whether `cited` names a file of the repository, `undefined` when it is no citation at all
 * (a path under a folder we do not have is an example, `a/b/file.md`; `dist/` is the build's
 * output). A `.js` name stands for the `.ts` module it is built from.
 */
function resolves(file: string, cited: string): boolean | undefined {
  const names = cited.endsWith('.js') ? [cited, cited.replace(/\.js$/, '.ts')] : [cited];
  const plain = cited.replace(/^\.\//, '');
  if (!plain.includes('/')) {
    if (!BARE.test(plain) || SKILL_FILES.has(plain)) return undefined;
    return names.some((n) => repositoryNames().has(path.basename(n)));
  }
  if (cited.startsWith('../')) {
    return names.some((n) => existsSync(path.join(path.dirname(file), n)));
  }
  const first = cited.split('/')[0] as string;
  if (first === 'dist') return undefined;
  const from = bases(file).filter((dir) => existsSync(path.join(dir, first)));
  if (from.length === 0) return undefined;
  return from.some((dir) => names.some((n) => existsSync(path.join(dir, n))));
}

let allNames: Set<string> | undefined;
/** The name of every file in the repository: a bare name must be one of them. */
function repositoryNames(): Set<string> {
  allNames ??= new Set(
    [...ROOTS, 'docs', '.'].flatMap((d) =>
      d === '.' ? readdirSync('.') : listFiles(d).map((f) => path.basename(f)),
    ),
  );
  return allNames;
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return SKIP_DIRS.has(e.name) ? [] : listFiles(full);
    return [full];
  });
}

/** The citations in the comments of `text` (of repository file `file`) that name no file here. */
export function missingCitations(file: string, text: string): Citation[] {
  const comments = file.endsWith('.svelte') ? svelteComments(text) : commentsOf(text, file);
  const out: Citation[] = [];
  for (const comment of comments) {
    for (const m of comment.text.matchAll(CITATION)) {
      const cited = m[1] as string;
      if (resolves(file, cited) !== false) continue;
      const line = text.slice(0, comment.pos + (m.index ?? 0)).split('\n').length;
      out.push({ file, line, cited });
    }
  }
  return out;
}

test('no comment in the repository cites a file that is not in it', () => {
  const files = ROOTS.flatMap((root) => listFiles(root)).filter((f) => SOURCE.test(f));
  expect(files.length).toBeGreaterThan(300);
  const missing = files.flatMap((f) => missingCitations(f, readFileSync(f, 'utf8')));
  expect(missing.map((m) => `${m.file}:${m.line} cites ${m.cited}`)).toEqual([]);
});

test('a comment citing a file that does not exist is named with its line', () => {
  const text = [
    "// Assumed (GAPS.md, Edit states); see docs/service.md and 'docs/nowhere.md'.",
    "const s = 'GAPS.md in a string is no citation';",
    '/** The rest is in ../queue/missing-file.ts and job-queue.ts. */',
    'export const x = 1; // trailing: PRODUCT.md',
    '// Not citations: a Skill holds SKILL.md and colors.md; `a/b/file.md`; dist/main/x.js.',
  ].join('\n');
  expect(missingCitations('main/engine/api/example.ts', text)).toEqual([
    { file: 'main/engine/api/example.ts', line: 1, cited: 'GAPS.md' },
    { file: 'main/engine/api/example.ts', line: 1, cited: 'docs/nowhere.md' },
    { file: 'main/engine/api/example.ts', line: 3, cited: '../queue/missing-file.ts' },
    { file: 'main/engine/api/example.ts', line: 4, cited: 'PRODUCT.md' },
  ]);
});

test('a Svelte file is read for the comments of its script and of its markup', () => {
  const text = [
    '<script lang="ts">',
    '  // see docs/product.md',
    "  const a = 'x/y/none.ts';",
    '</script>',
    '<!-- from GAPS.md -->',
  ].join('\n');
  expect(missingCitations('renderer/src/X.svelte', text)).toEqual([
    { file: 'renderer/src/X.svelte', line: 5, cited: 'GAPS.md' },
  ]);
});

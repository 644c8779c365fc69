// The matcher that starts afresh every so many lookups (its cache would grow with every
// path ever seen) answers exactly as the `ignore` package does, across those restarts.
import ignore from 'ignore';
import { expect, test } from 'vitest';
import { BoundedIgnore } from '../../main/engine/folder-parts/bounded-ignore.ts';

const PATTERNS = ['*.tmp', 'build/', '!build/keep.png', 'drafts/**/*.psd', '~$*', '# a comment'];

test('verdicts match the ignore package over many lookups', () => {
  const bounded = new BoundedIgnore(PATTERNS, { ignorecase: true });
  const plain = ignore({ ignorecase: true }).add(PATTERNS);
  const paths: string[] = [];
  for (let i = 0; i < 3000; i++) {
    paths.push(
      `shoot-${i % 7}/img-${i}.png`,
      `shoot-${i % 7}/img-${i}.TMP`,
      `build/out-${i}.png`,
      `drafts/${i % 3}/cover-${i}.psd`,
      `~$doc-${i}.docx`,
      `folder-${i % 5}/`,
    );
  }
  paths.push('build/keep.png');
  const verdicts = paths.map((p) => bounded.ignores(p));
  expect(verdicts).toEqual(paths.map((p) => plain.ignores(p)));
  expect(verdicts.filter(Boolean).length).toBeGreaterThan(0);
  expect(verdicts.filter((v) => !v).length).toBeGreaterThan(0);
});

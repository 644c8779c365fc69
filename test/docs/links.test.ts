// The README and the docs are complete in the repository: every relative link and every
// path they name in backticks that looks like a file of ours exists here, and nothing
// points outside the repository.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

const files = [
  'README.md',
  'DEVELOPERS.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

test.each(files)('%s links only inside the repository, to files that exist', (file) => {
  const text = readFileSync(file, 'utf8');
  expect(text).not.toMatch(/\.\.\/shared|\]\(\.\.\//);
  const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1] as string);
  for (const link of links.filter((l) => !/^[a-z]+:/i.test(l))) {
    expect(existsSync(path.join(path.dirname(file), link)), `${file} links to ${link}`).toBe(true);
  }
});

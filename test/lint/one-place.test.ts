// One place per assumption, one copy per rule: the upload cap, the source-file caps and the
// image-edit limits are written once (main/engine/api/assumed.ts) and imported where used;
// the engine has one backoff formula and one atomic write.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

function sources(dir: string): { file: string; text: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return full.endsWith('.ts') ? [{ file: full, text: readFileSync(full, 'utf8') }] : [];
  });
}

const engine = sources('main/engine');
const where = (pattern: RegExp) => engine.filter((s) => pattern.test(s.text)).map((s) => s.file);

test.each([
  ['the 10 MB upload cap', /10_000_000/],
  ['the 100 MiB source-file cap', /100 \* 2 \*\* 20|100 \* 1024 \* 1024/],
  ['the 256 MiB total', /256 \* 2 \*\* 20/],
  ['the prompt length', /maxPrompt: 2000|prompt'?, 1, 2000/],
  ['the reference limit', /maxReferences: 9|> 9\)/],
])('%s is written once, in assumed.ts', (_what, pattern) => {
  expect(where(pattern)).toEqual([path.normalize('main/engine/api/assumed.ts')]);
});

test('one backoff formula (equal jitter) and one atomic write', () => {
  expect(where(/ceiling \/ 2/)).toEqual([path.normalize('main/engine/queue/backoff.ts')]);
  expect(where(/export async function writeFileAtomic/)).toEqual([
    path.normalize('main/engine/export-parts/durable-fs.ts'),
  ]);
});

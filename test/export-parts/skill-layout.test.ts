// The export sync's folders inside a brand folder are never uploaded: the folder scanner's
// and watcher's own rules must keep skipping them.
import { expect, test } from 'vitest';
import { areaOf } from '../../main/engine/folder-parts/folder-layout.ts';
import { isBuiltInIgnored } from '../../main/engine/folder-parts/ignore-rules.ts';
import { INTERNAL_DIR_NAME, skillLayout } from '../../main/engine/export-parts/skill-layout.ts';
import path from 'node:path';

test('the installed Skill and the bookkeeping folder are outside every upload area', () => {
  const layout = skillLayout('/root/Acme');
  const relative = (p: string): string =>
    path.relative(layout.brandDir, p).split(path.sep).join('/');
  expect(areaOf(`${relative(layout.live)}/assets/logo.png`)).toBe('ignored-reserved');
  expect(isBuiltInIgnored(INTERNAL_DIR_NAME, true)).toBe(true);
  for (const dir of [layout.staging, layout.versions, layout.trash]) {
    expect(isBuiltInIgnored(`${relative(dir)}/x-1/assets/logo.png`)).toBe(true);
  }
  expect(isBuiltInIgnored(relative(layout.journal))).toBe(true);
});

// The export sync's folders inside a brand folder are never uploaded: the folder scanner's
// and watcher's own rules must keep skipping them.
import { expect, test } from 'vitest';
import { areaOf } from '../../main/engine/folders/folder-layout.ts';
import { isBuiltInIgnored } from '../../main/engine/folders/ignore-rules.ts';
import { INTERNAL_DIR_NAME, skillLayout } from '../../main/engine/exports/skill-layout.ts';
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

// Tables pad by display width: wide characters and emoji take two columns, combining marks
// none, so columns line up whatever script a brand's name is written in.
import stringWidth from 'string-width';
import { beforeAll, expect, test } from 'vitest';
import { fields, loadDisplayWidth, table } from '../../main/hosts/cli/output.ts';

beforeAll(loadDisplayWidth);

test('columns line up for wide, emoji and combining names', () => {
  const lines = table(
    ['BRAND', 'STATUS', 'NOTE'],
    [
      ['Acme', 'ready', 'a'],
      ['東京カフェ', 'ready', 'b'],
      ['Café 🎨', 'failed', 'c'],
      ['Cafe\u0301', 'ready', 'd'],
    ],
  );
  // The third column starts at the same display column on every line.
  const starts = lines.map((line) => stringWidth(line.slice(0, line.lastIndexOf(' ') + 1)));
  expect(new Set(starts).size).toBe(1);
});

test('fields line up their values by display width', () => {
  const lines = fields([
    ['名前', 'x'],
    ['status', 'y'],
  ]);
  expect(lines.map((l) => stringWidth(l.slice(0, l.length - 1)))).toEqual([9, 9]);
});

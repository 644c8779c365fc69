// How an edit reads: the stable document (null where the service said nothing, unknown
// values kept), the markdown hunks as a unified diff, and the question of an edit that needs
// an answer.
import { describe, expect, test } from 'vitest';
import type { BrandEdit } from '../../main/engine/api/index.ts';
import {
  describeAccepts,
  editChangeLines,
  editDoc,
  editStateLine,
  markdownDiff,
} from '../../main/engine/edits/index.ts';

const edit: BrandEdit = {
  id: 'e1',
  status: 'input_required',
  changeSet: {
    markdownChanges: [
      {
        path: 'voice.md',
        operation: 'modify',
        additions: 1,
        deletions: 1,
        truncated: true,
        hunks: [
          {
            oldStart: 3,
            oldLines: 2,
            newStart: 3,
            newLines: 2,
            lines: [
              { kind: 'context', text: '# Voice' },
              { kind: 'delete', text: 'Loud.' },
              { kind: 'add', text: 'Calm.', noNewlineAtEndOfFile: true },
              { kind: 'moved', text: 'Elsewhere.' },
            ],
          },
        ],
      },
    ],
    profileChanges: [
      {
        kind: 'field',
        path: 'colors[0].hex',
        operation: 'replace',
        previous: '#000000',
        next: '#112233',
      },
    ],
    assetChanges: [{ kind: 'asset', role: 'primary_logo', operation: 'add', nextAssetId: 'img-2' }],
  },
  interaction: {
    subject: 'Tone',
    prompt: 'Should the voice stay formal?',
    kind: 'clarification',
    accepts: {
      text: { required: true, minLength: 1, maxLength: 10000 },
      images: { min: 0, max: 0 },
    },
  },
};

describe('edit text', () => {
  test('the document keeps every key, null where unknown', () => {
    const doc = editDoc({ id: 'e2', status: 'preparing' });
    expect(doc).toMatchObject({
      id: 'e2',
      status: 'preparing',
      brandId: null,
      error: null,
      interaction: null,
      profileChanges: [],
      markdownChanges: [],
      assetChanges: [],
      targetProfile: null,
    });
  });

  test('markdown hunks as a unified diff: markers, unknown kinds as ?, no newline, shortened', () => {
    const doc = editDoc(edit);
    expect(markdownDiff(doc.markdownChanges[0]!)).toEqual([
      '--- a/voice.md',
      '+++ b/voice.md',
      '@@ -3,2 +3,2 @@',
      ' # Voice',
      '-Loud.',
      '+Calm.',
      '\\ No newline at end of file',
      '?Elsewhere.',
      '… (the service shortened this diff)',
    ]);
  });

  test('the question, what it accepts, and every change', () => {
    const doc = editDoc(edit);
    expect(editStateLine(doc)).toBe(
      'input_required (a question needs an answer before the candidate can be prepared)',
    );
    expect(describeAccepts(doc.interaction!.accepts)).toBe('text (1-10000 characters, required)');
    const lines = editChangeLines(doc);
    expect(lines).toContain('Question (clarification):');
    expect(lines).toContain('  Subject: Tone');
    expect(lines).toContain('  Prompt:  Should the voice stay formal?');
    expect(lines).toContain('  colors[0].hex: #000000 → #112233 (replace)');
    expect(lines).toContain('  voice.md (modify, +1 -1)');
    expect(lines).toContain('    -Loud.');
    expect(lines).toContain('  primary_logo: (none) → img-2 (add)');
  });
});

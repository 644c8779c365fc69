// The folder sync's report journal keeps entries only while a sync pass holds it: a `run`
// that nobody reports on keeps nothing, whatever it does.
import { expect, test } from 'vitest';
import { SyncJournal } from '../../main/engine/folder-sync/sync-journal.ts';

const skipped = (path: string) =>
  ({
    type: 'skipped',
    brandId: 'b1',
    folder: 'Acme',
    path,
    code: 'UNSUPPORTED_TYPE',
    reason: 'GIF is not accepted: PNG, JPEG, WebP or AVIF',
  }) as const;

test('nothing is kept while no pass holds the journal', () => {
  const journal = new SyncJournal(() => 1);
  journal.add(skipped('a.gif'));
  expect(journal.since(0)).toEqual([]);
  expect(journal.report(0, 0).summary.join('\n')).not.toContain('a.gif');
});

test('entries are kept from a hold until its release; overlapping holds keep them until the last', () => {
  let now = 10;
  const journal = new SyncJournal(() => now++);
  const first = journal.hold();
  journal.add(skipped('a.gif'));
  const second = journal.hold();
  journal.add(skipped('b.gif'));
  expect(journal.since(0).map((e) => e.path)).toEqual(['a.gif', 'b.gif']);
  expect(journal.report(0, 0).summary.join('\n')).toContain('b.gif');
  first();
  first(); // a second call of the same release counts once
  expect(journal.since(0).map((e) => e.path)).toEqual(['a.gif', 'b.gif']);
  second();
  expect(journal.since(0)).toEqual([]);
  journal.add(skipped('c.gif'));
  expect(journal.since(0)).toEqual([]);
});

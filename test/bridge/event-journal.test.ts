// The numbered event stream: numbers strictly increase, a replay returns exactly what was
// missed in order, and a number the journal no longer holds (or one from another start)
// gets a single resync.
import { expect, test } from 'vitest';
import { EventJournal } from '../../main/engine/app/event-journal.ts';

test('replays what a subscriber missed, in order, without repeats; resync when too much was missed', () => {
  const journal = new EventJournal({ capacity: 5 });
  const live: number[] = [];
  const off = journal.subscribe((e) => live.push(e.seq));
  for (let i = 0; i < 8; i++) journal.push({ type: 'queue' });
  off();
  journal.push({ type: 'credits' });
  expect(live).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(journal.since(6).events.map((e) => e.seq)).toEqual([7, 8, 9]);
  expect(journal.since(9).events).toEqual([]);
  // Held: 5..9. After 4 means 5..9, all still there; after 3 would need 4: resync.
  expect(journal.since(4).events.map((e) => e.seq)).toEqual([5, 6, 7, 8, 9]);
  expect(journal.since(3).events.map((e) => e.type)).toEqual(['resync']);
  expect(journal.since(42).events.map((e) => e.type)).toEqual(['resync']);
});

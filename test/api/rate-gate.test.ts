// The rate gate on its own: it never shortens a pause, tells listeners when it closes and
// when it opens again, and lets waiting calls through only once the pause is over.
import { expect, test } from 'vitest';
import { pauseNote, RateGate, scaledClock } from '../../main/engine/api/index.ts';

test('pauses extend but never shrink; listeners hear the close and the reopening', async () => {
  const clock = scaledClock(20); // 1 s of gate time is 50 ms of real time
  const gate = new RateGate(clock);
  const heard: Array<number | undefined> = [];
  const reopened = new Promise<void>((resolve) =>
    gate.onChange((until) => {
      heard.push(until);
      if (until === undefined) resolve();
    }),
  );
  const start = clock.now();
  gate.pauseUntil(start + 1000);
  gate.pauseUntil(start + 500); // shorter: ignored
  expect(gate.pausedUntil).toBe(start + 1000);
  const waited = gate.wait().then(() => clock.now());
  gate.pauseUntil(start + 1500); // longer: the waiting call waits longer too
  expect(await waited).toBeGreaterThanOrEqual(start + 1500);
  await reopened;
  expect(heard).toEqual([start + 1000, start + 1500, undefined]);
  expect(gate.pausedUntil).toBeUndefined();
  expect(pauseNote(start + 1500)).toMatch(/^Paused by the service until \d\d:\d\d:\d\d\.$/);
});

test('a pause in the past changes nothing', () => {
  const gate = new RateGate();
  const heard: unknown[] = [];
  gate.onChange((u) => heard.push(u));
  gate.pauseUntil(Date.now() - 10);
  expect(gate.pausedUntil).toBeUndefined();
  expect(heard).toEqual([]);
});

// The limiter never runs more than its limit, even when callers arrive between a release and
// the wake-up of the caller that waited for it (arrivals from every kind of tick).
import { expect, test } from 'vitest';
import { Limiter } from '../../main/engine/folder-parts/concurrency.ts';

test('never more than the limit at once, whatever the timing of arrivals', async () => {
  for (const max of [1, 2, 3]) {
    const limiter = new Limiter(max);
    let active = 0;
    let peak = 0;
    const runs: Promise<void>[] = [];
    const task = async (i: number) => {
      active++;
      peak = Math.max(peak, active);
      // Some finish at once, some after a microtask, some after a timer.
      if (i % 3 === 1) await Promise.resolve();
      else if (i % 3 === 2) await new Promise((resolve) => setTimeout(resolve, 0));
      active--;
      // A caller arriving right at the release, before the waiter wakes.
      if (i < 300) runs.push(limiter.run(() => task(i + 1000)));
    };
    for (let i = 0; i < 300; i++) {
      runs.push(limiter.run(() => task(i)));
      if (i % 7 === 0) await Promise.resolve();
    }
    while (runs.length > 0) await runs.shift();
    expect(peak, `limit ${max}`).toBeLessThanOrEqual(max);
    expect(limiter.queued).toBe(0);
  }
});

test('a bad limit is refused', () => {
  expect(() => new Limiter(0)).toThrow(RangeError);
  expect(() => new Limiter(1.5)).toThrow(RangeError);
});

// The byte budget of the uploads: bytes taken and given back, grants in the order asked (a
// large file is not passed over by small ones), a file larger than the budget alone, and an
// abort while waiting that takes nothing.
import { describe, expect, test } from 'vitest';
import { ByteBudget } from '../../main/engine/folder-sync/byte-budget.ts';

const settled = async <T>(p: Promise<T>): Promise<boolean> => {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setImmediate(r));
  return done;
};

describe('ByteBudget', () => {
  test('takes bytes while they fit and waits for a release when they do not', async () => {
    const budget = new ByteBudget(100);
    const a = await budget.acquire(60);
    const b = await budget.acquire(40);
    expect(budget.inUse).toBe(100);
    const c = budget.acquire(30);
    expect(await settled(c)).toBe(false);
    a();
    a(); // a second release gives back nothing more
    const releaseC = await c;
    expect(budget.inUse).toBe(70);
    b();
    releaseC();
    expect(budget.inUse).toBe(0);
  });

  test('grants in the order asked: a small request waits behind a large one', async () => {
    const budget = new ByteBudget(100);
    const first = await budget.acquire(50);
    const order: string[] = [];
    const large = budget.acquire(90).then((release) => (order.push('large'), release));
    const small = budget.acquire(10).then((release) => (order.push('small'), release));
    // 10 would fit beside the 50 held, but the 90 asked first.
    expect(await settled(small)).toBe(false);
    first();
    (await large)();
    (await small)();
    expect(order).toEqual(['large', 'small']);
  });

  test('a request larger than the whole budget goes alone, once nothing else is held', async () => {
    const budget = new ByteBudget(100);
    const held = await budget.acquire(20);
    const huge = budget.acquire(500);
    expect(await settled(huge)).toBe(false);
    held();
    const release = await huge;
    expect(budget.inUse).toBe(500);
    const next = budget.acquire(1);
    expect(await settled(next)).toBe(false);
    release();
    (await next)();
    expect(budget.inUse).toBe(0);
  });

  test('an abort while waiting rejects, takes nothing, and lets the next in line through', async () => {
    const budget = new ByteBudget(100);
    const held = await budget.acquire(70);
    const controller = new AbortController();
    const big = budget.acquire(80, controller.signal);
    const small = budget.acquire(30);
    expect(await settled(small)).toBe(false);
    controller.abort();
    await expect(big).rejects.toMatchObject({ name: 'AbortError' });
    (await small)();
    held();
    expect(budget.inUse).toBe(0);
    await expect(budget.acquire(1, controller.signal)).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(() => new ByteBudget(0)).toThrow(RangeError);
  });
});

// One piece of work at a time per key within this process: later work waits for the earlier
// to settle (failed or not). Keys are resolved paths, prefixed by what is locked.
const tails = new Map<string, Promise<unknown>>();

export async function withPathLock<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = tails.get(key) ?? Promise.resolve();
  const run = before.then(work, work);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    if (tails.get(key) === tail) tails.delete(key);
  }
}

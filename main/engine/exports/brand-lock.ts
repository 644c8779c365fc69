// One install or recovery at a time per brand folder within this process: two swaps
// interleaving their renames would break the journal's single-swap assumption.
import path from 'node:path';

const tails = new Map<string, Promise<unknown>>();

export async function withBrandLock<T>(brandDir: string, work: () => Promise<T>): Promise<T> {
  const key = path.resolve(brandDir);
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

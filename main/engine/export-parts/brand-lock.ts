// One install or recovery at a time per brand folder within this process: two swaps
// interleaving their renames would break the journal's single-swap assumption.
import path from 'node:path';
import { withPathLock } from '../folder-parts/path-lock.ts';

export function withBrandLock<T>(brandDir: string, work: () => Promise<T>): Promise<T> {
  return withPathLock(`install:${path.resolve(brandDir)}`, work);
}

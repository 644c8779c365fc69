// A store on a real database file in a fresh temp dir, with a clock the test can step.
import { openStore } from '../../main/engine/store/index.ts';
import type { Store, StoreOptions } from '../../main/engine/store/index.ts';
import { makeTempDir } from './temp-dir.ts';

export interface TempStore {
  store: Store;
  dir: string;
  clock: { now: number };
  reopen: (options?: StoreOptions) => Store;
  cleanup: () => void;
}

export function openTempStore(options: StoreOptions = {}): TempStore {
  const temp = makeTempDir();
  const clock = { now: Date.parse('2026-03-01T12:00:00Z') };
  const opts = { now: () => clock.now, ...options };
  const handle: TempStore = {
    store: openStore({ dataDir: temp.dir }, opts),
    dir: temp.dir,
    clock,
    reopen: (more = {}) => {
      handle.store.close();
      handle.store = openStore({ dataDir: temp.dir }, { ...opts, ...more });
      return handle.store;
    },
    cleanup: () => {
      handle.store.close();
      temp.cleanup();
    },
  };
  return handle;
}

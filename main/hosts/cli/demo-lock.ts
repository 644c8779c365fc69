// One demo per data dir: a small lock file says which process runs it and at which URL, so
// that a second demo on the same folders points to the first instead of fighting it.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { keepPrivate } from '../../engine/store/index.ts';

export interface DemoHolder {
  pid: number;
  url: string | null;
}

export type DemoLock =
  | { claimed: true; publish(url: string): void; release(): void }
  | { claimed: false; holder: DemoHolder };

const LOCK_NAME = 'demo.lock';

export function claimDemoLock(dataDir: string): DemoLock {
  keepPrivate(dataDir);
  const file = path.join(dataDir, LOCK_NAME);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // Its URL carries the token: only this user may read it.
      writeFileSync(file, JSON.stringify({ pid: process.pid, url: null }), {
        flag: 'wx',
        mode: 0o600,
      });
      return {
        claimed: true,
        publish: (url) => writeFileSync(file, JSON.stringify({ pid: process.pid, url })),
        release: () => {
          if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      if (holder !== null && holder.pid !== process.pid && alive(holder.pid)) {
        return { claimed: false, holder };
      }
      rmSync(file, { force: true }); // left by a demo that died: take it over
    }
  }
  throw new Error(`the demo lock ${file} cannot be taken`);
}

function readHolder(file: string): DemoHolder | null {
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoHolder>;
    return typeof doc.pid === 'number'
      ? { pid: doc.pid, url: typeof doc.url === 'string' ? doc.url : null }
      : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

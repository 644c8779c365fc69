import { createHash } from 'node:crypto';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileStat } from '../../main/engine/folder-parts/file-stat.ts';
import { sha256FileSync } from '../../main/engine/folder-parts/sha256-file.ts';
import {
  type Clock,
  type StabilityOutcome,
  StabilityTracker,
  waitUntilStable,
} from '../../main/engine/folder-parts/stability.ts';
import { makePng, makeTempDir } from './fixtures.ts';

/** A clock whose time moves only when the test says so. */
class FakeClock implements Clock {
  t = 1_000_000;
  #timers = new Map<number, { at: number; fn: () => void }>();
  #next = 1;
  now = () => this.t;
  setTimeout = (fn: () => void, ms: number) => {
    const id = this.#next++;
    this.#timers.set(id, { at: this.t + ms, fn });
    return id;
  };
  clearTimeout = (id: unknown) => {
    this.#timers.delete(id as number);
  };
  /** Moves time forward, firing timers in order and letting their async work run. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    while (true) {
      await settle();
      const due = [...this.#timers.entries()]
        .filter(([, x]) => x.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#timers.delete(due[0]);
      this.t = Math.max(this.t, due[1].at);
      due[1].fn();
    }
    this.t = end;
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}

const errno = (code: string) => Object.assign(new Error(code), { code });

/** A fake file: its stat changes when the test writes to it. */
class FakeFs {
  files = new Map<string, FileStat>();
  probeErrors: string[] = [];
  statCalls = 0;
  inFlight = 0;
  maxInFlight = 0;
  readonly clock: FakeClock;
  constructor(clock: FakeClock) {
    this.clock = clock;
  }
  write(p: string, size: number): void {
    const prev = this.files.get(p);
    this.files.set(p, {
      size,
      mtimeMs: this.clock.t,
      ctimeMs: this.clock.t,
      ino: prev?.ino ?? 7,
      dev: 1,
    });
  }
  stat = async (p: string) => {
    this.statCalls++;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    // The stat is taken now and answered later, as a real one can be overtaken by a write.
    const s = this.files.get(p);
    await new Promise((r) => setImmediate(r));
    this.inFlight--;
    if (!s) throw errno('ENOENT');
    return { isFile: true, stat: { ...s } };
  };
  probeRead = async (p: string) => {
    if (!this.files.has(p)) throw errno('ENOENT');
    const code = this.probeErrors.shift();
    if (code) throw errno(code);
  };
}

describe('StabilityTracker (injected clock and stat)', () => {
  let clock: FakeClock;
  let fs: FakeFs;
  let outcomes: StabilityOutcome[];
  let locked: [number, number][];
  let tracker: StabilityTracker;
  beforeEach(() => {
    clock = new FakeClock();
    fs = new FakeFs(clock);
    outcomes = [];
    locked = [];
    tracker = new StabilityTracker({
      windowMs: 1000,
      clock,
      stat: fs.stat,
      probeRead: fs.probeRead,
      onSettled: (o) => outcomes.push(o),
      onLocked: (_p, attempt, delay) => locked.push([attempt, delay]),
    });
  });
  afterEach(() => tracker.close());

  it('waits while the file keeps changing, and takes it a window after the last write', async () => {
    fs.write('/a.png', 10);
    tracker.observe('/a.png');
    for (let i = 1; i <= 10; i++) {
      await clock.advance(400);
      fs.write('/a.png', 10 + i * 100);
      tracker.observe('/a.png');
      expect(outcomes).toEqual([]);
    }
    const lastWrite = clock.t;
    await clock.advance(999);
    expect(outcomes).toEqual([]);
    await clock.advance(1);
    expect(outcomes).toEqual([
      { status: 'stable', absPath: '/a.png', stat: expect.objectContaining({ size: 1010 }) },
    ]);
    expect(clock.t - lastWrite).toBe(1000);
  });

  it('takes a file quiet for longer than the window after one stat (the start-up case)', async () => {
    fs.write('/old.png', 5);
    await clock.advance(60_000);
    tracker.observe('/old.png');
    await clock.advance(0);
    expect(outcomes).toMatchObject([{ status: 'stable', absPath: '/old.png' }]);
    expect(fs.statCalls).toBe(1);
  });

  it('notices a write between the scan and the check even without an event', async () => {
    fs.write('/s.png', 5);
    await clock.advance(60_000);
    const scanned = fs.files.get('/s.png')!;
    fs.write('/s.png', 6); // written after the scan's stat, no event
    tracker.observe('/s.png', scanned);
    await clock.advance(0);
    expect(outcomes).toEqual([]);
    await clock.advance(1000);
    expect(outcomes).toMatchObject([{ status: 'stable', stat: { size: 6 } }]);
  });

  it('with trustFreshKnown, a quiet stat the caller just took is the check; an old one is not', async () => {
    tracker.close();
    tracker = new StabilityTracker({
      windowMs: 1000,
      clock,
      stat: fs.stat,
      probeRead: fs.probeRead,
      trustFreshKnown: true,
      onSettled: (o) => outcomes.push(o),
    });
    fs.write('/fresh.png', 5);
    fs.write('/later.png', 5);
    await clock.advance(60_000);
    tracker.observe('/fresh.png', fs.files.get('/fresh.png')!);
    await clock.advance(0);
    expect(outcomes).toMatchObject([{ status: 'stable', absPath: '/fresh.png' }]);
    expect(fs.statCalls).toBe(0);
    // A file that was still being written when looked at: its check, later, stats again.
    fs.write('/later.png', 6);
    tracker.observe('/later.png', fs.files.get('/later.png')!);
    await clock.advance(1000);
    expect(outcomes).toMatchObject([
      { absPath: '/fresh.png' },
      { status: 'stable', absPath: '/later.png', stat: { size: 6 } },
    ]);
    expect(fs.statCalls).toBe(1);
  });

  it('retries a locked file with a growing backoff and never gives up on it', async () => {
    fs.write('/l.png', 5);
    await clock.advance(5000);
    fs.probeErrors = ['EBUSY', 'EBUSY', 'EBUSY', 'EBUSY'];
    tracker.observe('/l.png');
    await clock.advance(0);
    await clock.advance(1000 + 2000 + 4000 + 8000);
    expect(locked).toEqual([
      [1, 1000],
      [2, 2000],
      [3, 4000],
      [4, 8000],
    ]);
    expect(outcomes).toMatchObject([{ status: 'stable', absPath: '/l.png' }]);
  });

  it('says unreadable for a permission error and gone for a deleted file', async () => {
    fs.write('/p.png', 5);
    fs.write('/g.png', 5);
    await clock.advance(5000);
    fs.probeErrors = ['EACCES'];
    tracker.observe('/p.png');
    await clock.advance(0);
    fs.files.delete('/g.png');
    tracker.observe('/g.png');
    await clock.advance(0);
    expect(outcomes).toEqual([
      {
        status: 'unreadable',
        absPath: '/p.png',
        stat: expect.objectContaining({ size: 5 }),
        code: 'EACCES',
        reason: 'The file cannot be read: permission denied (EACCES)',
      },
      { status: 'gone', absPath: '/g.png' },
    ]);
  });

  it('drops a forgotten file, and re-judges one that changed during its check', async () => {
    fs.write('/f.png', 5);
    fs.write('/r.png', 5);
    await clock.advance(5000);
    tracker.observe('/f.png');
    tracker.forget('/f.png');
    tracker.observe('/r.png');
    // The check of /r.png is under way (its stat awaits): a write and an event arrive.
    await Promise.resolve();
    fs.write('/r.png', 9);
    tracker.observe('/r.png');
    await clock.advance(0);
    expect(outcomes).toEqual([]);
    await clock.advance(1000);
    expect(outcomes).toMatchObject([{ status: 'stable', absPath: '/r.png', stat: { size: 9 } }]);
  });

  it('bounds the checks running at once', async () => {
    const bounded = new StabilityTracker({
      windowMs: 1000,
      maxConcurrentChecks: 8,
      clock,
      stat: fs.stat,
      probeRead: fs.probeRead,
      onSettled: (o) => outcomes.push(o),
    });
    for (let i = 0; i < 300; i++) fs.write(`/many/${i}.png`, i + 1);
    await clock.advance(5000);
    for (let i = 0; i < 300; i++) bounded.observe(`/many/${i}.png`);
    await clock.advance(0);
    for (let i = 0; i < 50 && outcomes.length < 300; i++) await settle();
    expect(outcomes).toHaveLength(300);
    expect(fs.maxInFlight).toBeLessThanOrEqual(8);
    expect(bounded.pendingCount).toBe(0);
    bounded.close();
  });

  it('refuses a negative window', () => {
    expect(() => new StabilityTracker({ windowMs: -1, onSettled: () => {} })).toThrow(/windowMs/);
  });
});

describe('stability on real files', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
  });
  afterEach(() => cleanup());

  it('takes a file written slowly over 3 s only once it is complete', async () => {
    const file = path.join(dir, 'slow.png');
    const png = makePng({ width: 64, height: 64, seed: 3 });
    const chunks = 30;
    const chunkSize = Math.ceil(png.length / chunks);
    let writerDone = false;
    const settled: StabilityOutcome[] = [];
    let sawWriterDone = false;
    const tracker = new StabilityTracker({
      windowMs: 1000,
      onSettled: (o) => {
        sawWriterDone = writerDone;
        settled.push(o);
      },
    });
    await writeFile(file, png.subarray(0, chunkSize));
    tracker.observe(file);
    for (let i = 1; i < chunks; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await appendFile(file, png.subarray(i * chunkSize, (i + 1) * chunkSize));
      tracker.observe(file); // what the watcher's change events do
    }
    writerDone = true;
    while (settled.length === 0) await new Promise((r) => setTimeout(r, 50));
    tracker.close();
    expect(sawWriterDone).toBe(true);
    expect(settled).toMatchObject([{ status: 'stable', stat: { size: png.length } }]);
    const hash = sha256FileSync(file, Buffer.alloc(65536));
    expect(hash).toMatchObject({
      status: 'hashed',
      sha256: createHash('sha256').update(png).digest('hex'),
    });
    expect(Buffer.compare(await readFile(file), png)).toBe(0);
  });

  it('waitUntilStable answers for one file', async () => {
    const file = path.join(dir, 'one.png');
    await writeFile(file, makePng());
    expect(await waitUntilStable(file, { windowMs: 50 })).toMatchObject({ status: 'stable' });
    expect(await waitUntilStable(path.join(dir, 'none.png'), { windowMs: 50 })).toEqual({
      status: 'gone',
      absPath: path.join(dir, 'none.png'),
    });
  });
});

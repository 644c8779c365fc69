// The run host gives memory back once a burst of work is over: one release per burst, only
// when the heap grew enough, caches let go of first. Driven sample by sample, no clock.
import { expect, test } from 'vitest';
import { IdleMemoryRelease, memoryReducingCollection } from '../../main/hosts/cli/idle-memory.ts';

const MB = 1024 * 1024;

function fixture(minGrowthBytes = 16 * MB) {
  let cpuMs = 0;
  let heap = 40 * MB;
  const calls: string[] = [];
  const release = new IdleMemoryRelease({
    quietCpuMs: 10,
    minGrowthBytes,
    cpuTimeMs: () => cpuMs,
    heapBytes: () => heap,
    releaseCaches: () => calls.push('caches'),
    collect: () => {
      calls.push('collect');
      heap = 20 * MB;
    },
  });
  return {
    release,
    calls,
    busy: (ms = 900) => {
      cpuMs += ms;
      release.check();
    },
    quiet: () => {
      cpuMs += 1;
      release.check();
    },
    grow: (bytes: number) => (heap += bytes),
  };
}

test('a quiet moment after start-up releases once, caches first', () => {
  const f = fixture();
  f.quiet();
  expect(f.calls).toEqual(['caches', 'collect']);
  f.quiet();
  f.quiet();
  expect(f.release.releases).toBe(1);
});

test('nothing is released while the process is busy', () => {
  const f = fixture();
  for (let i = 0; i < 5; i++) f.busy();
  expect(f.release.releases).toBe(0);
});

test('after each burst of work that grew the heap, one release when it goes quiet', () => {
  const f = fixture();
  f.quiet();
  f.grow(100 * MB);
  f.busy();
  f.busy();
  expect(f.release.releases).toBe(1);
  f.quiet();
  expect(f.release.releases).toBe(2);
  f.quiet();
  expect(f.release.releases).toBe(2);
});

test('a burst that barely grew the heap is not worth a release', () => {
  const f = fixture();
  f.quiet();
  f.grow(2 * MB);
  f.busy();
  f.quiet();
  expect(f.release.releases).toBe(1);
});

test('a cache that cannot be let go of does not keep the heap from being collected', () => {
  let collected = 0;
  const release = new IdleMemoryRelease({
    cpuTimeMs: () => 0,
    heapBytes: () => 64 * MB,
    releaseCaches: () => {
      throw new Error('database is locked');
    },
    collect: () => collected++,
  });
  release.check();
  expect(collected).toBe(1);
});

test('the collection of everything V8 can free is available without --expose-gc', () => {
  const collect = memoryReducingCollection();
  expect(() => collect()).not.toThrow();
});

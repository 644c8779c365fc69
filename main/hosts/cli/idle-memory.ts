// A long-running engine gives memory back once a burst of work is over. While busy (the
// start-up scan of a big tree, a drop of many files) V8 grows its heap, the young generation
// to its maximum (134 MB here), and an idle process never shrinks it again: V8's memory
// reducer judges the allocation rate from garbage collections, so with no collection it
// keeps seeing the rate of the last busy moment ("high alloc") and waits forever. So once
// the process has been quiet for a moment after work, and its heap is well above what it
// was after the last release, it collects once, reducing memory (and lets other caches go).
import v8 from 'node:v8';
import vm from 'node:vm';

export interface IdleMemoryOptions {
  /** How often the process's CPU time is sampled. */
  checkEveryMs?: number;
  /** CPU time within one sample below which the process counts as quiet. */
  quietCpuMs?: number;
  /** Heap growth since the last release below which a release is not worth its cost. */
  minGrowthBytes?: number;
  /** Lets other caches go (the database's page cache); runs just before the collection. */
  releaseCaches?: () => void;
  /** For tests: the process's CPU time (ms), its heap size (bytes), the collection. */
  cpuTimeMs?: () => number;
  heapBytes?: () => number;
  collect?: () => void;
}

const DEFAULTS = { checkEveryMs: 1000, quietCpuMs: 10, minGrowthBytes: 16 * 1024 * 1024 };

export class IdleMemoryRelease {
  readonly #opts: IdleMemoryOptions & typeof DEFAULTS;
  readonly #cpuTimeMs: () => number;
  readonly #heapBytes: () => number;
  #collect: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #lastCpuMs: number;
  // Start-up is work too: the first quiet moment may release.
  #busy = true;
  #heapAfterRelease = 0;
  #releases = 0;

  constructor(options: IdleMemoryOptions = {}) {
    this.#opts = { ...DEFAULTS, ...options };
    this.#cpuTimeMs = options.cpuTimeMs ?? processCpuMs;
    this.#heapBytes = options.heapBytes ?? (() => v8.getHeapStatistics().total_heap_size);
    this.#collect = options.collect;
    this.#lastCpuMs = this.#cpuTimeMs();
  }

  /** Releases done so far. */
  get releases(): number {
    return this.#releases;
  }

  start(): void {
    this.#timer ??= setInterval(() => this.check(), this.#opts.checkEveryMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One sample: busy, or quiet after work (then a release if the heap grew enough). */
  check(): void {
    const cpuMs = this.#cpuTimeMs();
    const used = cpuMs - this.#lastCpuMs;
    this.#lastCpuMs = cpuMs;
    if (used >= this.#opts.quietCpuMs) {
      this.#busy = true;
      return;
    }
    if (!this.#busy) return;
    this.#busy = false;
    if (this.#heapBytes() - this.#heapAfterRelease < this.#opts.minGrowthBytes) return;
    this.#release();
  }

  #release(): void {
    try {
      this.#opts.releaseCaches?.();
    } catch {
      // A cache that cannot be let go of now (the database busy) stays; the heap still goes.
    }
    this.#collect ??= memoryReducingCollection();
    this.#collect();
    this.#heapAfterRelease = this.#heapBytes();
    this.#releases++;
    // The release's own CPU time is not work to release after.
    this.#lastCpuMs = this.#cpuTimeMs();
  }
}

function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * V8's collection of everything it can, the one it runs near its heap limit: full
 * collections until nothing more is freed, then empty pages unmapped and the young
 * generation shrunk. Node has no API for it, only `gc` under --expose-gc; the flag is set
 * here, by the process itself, just long enough to take `gc` from a fresh context.
 */
export function memoryReducingCollection(): () => void {
  let gc = (globalThis as { gc?: unknown }).gc;
  if (typeof gc !== 'function') {
    v8.setFlagsFromString('--expose-gc');
    try {
      gc = vm.runInNewContext('gc');
    } finally {
      v8.setFlagsFromString('--no-expose-gc');
    }
  }
  const collect = gc as (options: object) => void;
  return () => collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

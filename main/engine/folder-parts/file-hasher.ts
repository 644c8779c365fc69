// Fast streaming sha256 of many files: a small pool of worker threads, each hashing with
// big synchronous reads into one buffer, fed batches of paths so that a message costs
// little per file. Node's sha256 is OpenSSL's, so what is left to win over
// `openssl dgst` is per-file overhead and a second core.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FolderError } from './folder-errors.ts';
import { statNow } from './file-stat.ts';
import type { UploadArea } from './file-classifier.ts';
import { hashOne, type HashWithVerdict } from './hash-one.ts';
import type { HashRequest, HashResponse } from './hash-worker.ts';

export type { HashResult } from './sha256-file.ts';
export type { HashWithVerdict } from './hash-one.ts';

// Same extension as this module: .ts when run from source, .js once built.
const WORKER_URL = new URL(
  `./hash-worker${path.extname(fileURLToPath(import.meta.url))}`,
  import.meta.url,
);

export interface HasherPoolOptions {
  /**
   * Hasher threads; default: one core fewer than the machine has (the main process and
   * the UI keep one), at least 1, at most 4 (more only contend for the disk). On the 2
   * shared cores of the bench machine 1 thread beat 2 (bench/scan-hash.bench.ts).
   */
  threads?: number;
  /** Most paths in one message to a thread. */
  batchSize?: number;
  /**
   * A thread with nothing to hash for this long is stopped (each is a V8 isolate of its own,
   * several MB); the next file starts one again, which costs tens of ms.
   */
  idleThreadMs?: number;
}

interface Job {
  absPath: string;
  area: UploadArea | null;
  resolve: (r: HashWithVerdict) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  inFlight: Map<number, Job[]>;
  idleTimer: NodeJS.Timeout | undefined;
  /** Stopped for being idle: its exit is no failure. */
  retired: boolean;
}

// Two batches per thread: one being hashed, one waiting, so a thread never idles on a
// round trip to the main thread.
const BATCHES_IN_FLIGHT = 2;
const DEFAULT_IDLE_THREAD_MS = 2000;
// A thread takes tens of ms to start (60 to 70 on 2 busy cores, while a sync pass lists
// brands): until the first one answers, the pool hashes this many files itself, each at
// most this large (some 0.3 ms of this thread for 100 KB), so that the first uploads need
// not wait for it. Few and small, so that the event loop is never held for long.
const INLINE_BEFORE_READY = 8;
const INLINE_MAX_BYTES = 1024 * 1024;

export class HasherPool {
  readonly threads: number;
  readonly #batchSize: number;
  readonly #idleThreadMs: number;
  #queue: Job[] = [];
  #head = 0;
  readonly #slots: Slot[] = [];
  #nextId = 1;
  #flushScheduled = false;
  #closed = false;
  /** A running thread has answered: until all stop, every file goes to the threads. */
  #answered = false;
  #inlineLeft = INLINE_BEFORE_READY;
  #inlineBuffer: Buffer | undefined;
  #hashedInline = 0;

  constructor(opts: HasherPoolOptions = {}) {
    const threads = opts.threads ?? Math.max(1, Math.min(4, os.availableParallelism() - 1));
    if (!Number.isInteger(threads) || threads < 1) {
      throw new RangeError(`HasherPool threads must be a positive integer, not ${threads}`);
    }
    this.threads = threads;
    this.#batchSize = opts.batchSize ?? 32;
    this.#idleThreadMs = opts.idleThreadMs ?? DEFAULT_IDLE_THREAD_MS;
  }

  /**
   * Hashes one file; resolves with its outcome (failures are values, not rejections).
   * With `judgeFor`, the file's bytes are also judged for that area (`verdict`).
   */
  hash(absPath: string, judgeFor?: UploadArea): Promise<HashWithVerdict> {
    if (this.#closed) {
      return Promise.reject(new FolderError('HASHER_CLOSED', 'The hasher pool is closed'));
    }
    if (!this.#answered && this.#inlineLeft > 0 && isSmallFile(absPath)) {
      this.#inlineLeft--;
      this.#hashedInline++;
      this.warm(); // the thread starts meanwhile, for the files after these
      this.#inlineBuffer ??= Buffer.allocUnsafe(64 * 1024);
      return hashOne(absPath, judgeFor ?? null, this.#inlineBuffer);
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ absPath, area: judgeFor ?? null, resolve, reject });
      if (!this.#flushScheduled) {
        // Gather the paths asked for in this tick before cutting batches.
        this.#flushScheduled = true;
        queueMicrotask(() => {
          this.#flushScheduled = false;
          this.#flush();
        });
      }
    });
  }

  /**
   * Starts a thread ahead of the first file (a sync pass does while it lists brands): its
   * start-up, tens of ms, is then not waited for. Stopped like any idle thread.
   */
  warm(): void {
    if (this.#closed || this.#slots.length > 0) return;
    const slot = this.#spawn();
    this.#slots.push(slot);
    slot.worker.unref();
    this.#retireWhenIdle(slot);
  }

  get queued(): number {
    return this.#queue.length - this.#head;
  }

  /** Files hashed on the calling thread while no hasher thread was ready. */
  get hashedInline(): number {
    return this.#hashedInline;
  }

  /** Hasher threads started and not stopped. */
  get runningThreads(): number {
    return this.#slots.length;
  }

  #flush(): void {
    // One thread for a trickle of files; another only once the queue outgrows the ones
    // running (a thread costs tens of ms to start, more on a busy machine).
    while (
      this.#slots.length < this.threads &&
      this.queued > this.#batchSize * BATCHES_IN_FLIGHT * this.#slots.length
    ) {
      this.#slots.push(this.#spawn());
    }
    for (const slot of this.#slots) {
      while (slot.inFlight.size < BATCHES_IN_FLIGHT && this.queued > 0) {
        const size = Math.max(1, Math.min(this.#batchSize, Math.ceil(this.queued / this.threads)));
        const batch = this.#queue.slice(this.#head, this.#head + size);
        this.#head += batch.length;
        const id = this.#nextId++;
        slot.inFlight.set(id, batch);
        clearTimeout(slot.idleTimer);
        slot.worker.ref();
        const request: HashRequest = {
          id,
          paths: batch.map((j) => j.absPath),
          ...(batch.some((j) => j.area !== null) ? { areas: batch.map((j) => j.area) } : {}),
        };
        slot.worker.postMessage(request);
      }
    }
    // Jobs handed to a thread are not kept here (their paths and callbacks add up).
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
  }

  #spawn(): Slot {
    const slot: Slot = {
      worker: new Worker(WORKER_URL),
      inFlight: new Map(),
      idleTimer: undefined,
      retired: false,
    };
    slot.worker.on('message', (response: HashResponse) => {
      this.#answered = true;
      const batch = slot.inFlight.get(response.id);
      slot.inFlight.delete(response.id);
      batch?.forEach((job, i) => {
        const result = response.results[i];
        if (result) job.resolve(result);
        else job.reject(new FolderError('HASHER_CRASHED', `No hash result for ${job.absPath}`));
      });
      // An idle pool must not keep the process alive.
      if (slot.inFlight.size === 0) slot.worker.unref();
      this.#flush();
      if (slot.inFlight.size === 0) this.#retireWhenIdle(slot);
    });
    const fail = (error: Error) => {
      if (slot.retired) return;
      const index = this.#slots.indexOf(slot);
      if (index !== -1) this.#slots.splice(index, 1);
      for (const batch of slot.inFlight.values()) {
        for (const job of batch) {
          job.reject(
            new FolderError('HASHER_CRASHED', `A hasher thread failed: ${error.message}`, {
              path: job.absPath,
              cause: error,
            }),
          );
        }
      }
      slot.inFlight.clear();
      if (!this.#closed) this.#flush();
    };
    slot.worker.on('error', fail);
    slot.worker.on('exit', (code) => fail(new Error(`hasher thread exited with code ${code}`)));
    return slot;
  }

  #retireWhenIdle(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      if (slot.inFlight.size > 0 || this.#closed) return;
      slot.retired = true;
      this.#slots.splice(this.#slots.indexOf(slot), 1);
      void slot.worker.terminate();
      if (this.#slots.length === 0) {
        // The next file starts a thread again: the first few are hashed here meanwhile.
        this.#answered = false;
        this.#inlineLeft = INLINE_BEFORE_READY;
      }
    }, this.#idleThreadMs);
    slot.idleTimer.unref();
  }

  /** Lets the hashes under way finish, refuses queued ones, and stops the threads. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const job of this.#queue.slice(this.#head)) {
      job.reject(new FolderError('HASHER_CLOSED', 'The hasher pool was closed'));
    }
    this.#queue = [];
    this.#head = 0;
    await Promise.all(
      this.#slots.map(async (slot) => {
        clearTimeout(slot.idleTimer);
        while (slot.inFlight.size > 0) {
          await new Promise((resolve) => {
            slot.worker.once('message', resolve);
            slot.worker.once('exit', resolve);
          });
        }
        await slot.worker.terminate();
      }),
    );
    this.#slots.length = 0;
  }
}

/** A regular file small enough to hash on the calling thread (any doubt: not). */
function isSmallFile(absPath: string): boolean {
  const s = statNow(absPath);
  return s !== undefined && s.isFile() && s.size <= INLINE_MAX_BYTES;
}

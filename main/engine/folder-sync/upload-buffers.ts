// The buffers the uploads read their files into, lent out and given back instead of a new one
// per file. A fresh buffer of 100 KB is memory the kernel must map and zero as the read fills
// it (whole-file-buffer.ts measured the same for the hasher's reads), and each upload reads
// its file once more on this thread. A buffer is given back only once its upload's exchange
// has settled: then the body was either all written or its request destroyed, so no socket
// still sends from it.

/** The smallest buffer lent: files of up to this size all fit in any buffer kept. */
const MIN_BYTES = 256 * 1024;

export interface UploadBuffersOptions {
  /** Bytes kept for reuse at most (default 16 MiB); a buffer given back beyond is let go. */
  keepBytes?: number;
  /** Kept buffers are let go after this long without a loan (default 2 s), so idle is small. */
  idleMs?: number;
}

export interface LentBuffer {
  /** Exactly the size asked for; not to be used after giveBack(). */
  bytes: Buffer;
  /** Idempotent. */
  giveBack(): void;
}

export class UploadBuffers {
  readonly #keepBytes: number;
  readonly #idleMs: number;
  readonly #free: Buffer[] = [];
  #freeBytes = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: UploadBuffersOptions = {}) {
    this.#keepBytes = options.keepBytes ?? 16 * 1024 * 1024;
    this.#idleMs = options.idleMs ?? 2000;
  }

  /** Buffers kept for reuse now (for tests). */
  get kept(): number {
    return this.#free.length;
  }

  lend(size: number): LentBuffer {
    let buffer: Buffer | undefined;
    let best = -1;
    for (let i = 0; i < this.#free.length; i++) {
      const candidate = this.#free[i] as Buffer;
      if (candidate.length >= size && (best < 0 || candidate.length < this.#free[best]!.length))
        best = i;
    }
    if (best >= 0) {
      buffer = this.#free.splice(best, 1)[0] as Buffer;
      this.#freeBytes -= buffer.length;
    } else {
      buffer = Buffer.allocUnsafe(Math.max(size, MIN_BYTES));
    }
    let lent = true;
    return {
      bytes: buffer.subarray(0, size),
      giveBack: () => {
        if (!lent) return;
        lent = false;
        this.#keep(buffer);
      },
    };
  }

  /** Lets every kept buffer go. */
  clear(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#free.length = 0;
    this.#freeBytes = 0;
  }

  #keep(buffer: Buffer): void {
    if (this.#freeBytes + buffer.length <= this.#keepBytes) {
      this.#free.push(buffer);
      this.#freeBytes += buffer.length;
    }
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.clear(), this.#idleMs);
      this.#timer.unref();
    } else {
      this.#timer.refresh();
    }
  }
}

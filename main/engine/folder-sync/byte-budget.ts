// How many bytes the uploads may hold at once: each holds its file's bytes whole while it is
// sent (up to 10 MB), so the number of uploads at once alone does not bound memory. Grants go
// in the order asked, so a large file is never passed over for ever by small ones; a file
// larger than the whole budget goes alone.

export class ByteBudget {
  readonly #limit: number;
  #inUse = 0;
  readonly #waiting: { bytes: number; grant: () => void }[] = [];

  constructor(limit: number) {
    if (!Number.isFinite(limit) || limit <= 0) {
      throw new RangeError(`a byte budget must be positive, not ${limit}`);
    }
    this.#limit = limit;
  }

  /** Bytes held now. */
  get inUse(): number {
    return this.#inUse;
  }

  /**
   * Waits until `bytes` fit, takes them, and resolves with their release (idempotent). An
   * abort while it waits rejects with an AbortError and takes nothing.
   */
  acquire(bytes: number, signal?: AbortSignal): Promise<() => void> {
    const size = Math.max(0, bytes);
    if (signal?.aborted) return Promise.reject(stopped());
    if (this.#waiting.length === 0 && this.#fits(size)) return Promise.resolve(this.#take(size));
    return new Promise((resolve, reject) => {
      const entry = {
        bytes: size,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.#take(size));
        },
      };
      const onAbort = () => {
        const at = this.#waiting.indexOf(entry);
        if (at >= 0) this.#waiting.splice(at, 1);
        reject(stopped());
        this.#grantWaiting(); // the one behind it may fit now
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(entry);
    });
  }

  #fits(bytes: number): boolean {
    return this.#inUse === 0 || this.#inUse + bytes <= this.#limit;
  }

  #take(bytes: number): () => void {
    this.#inUse += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inUse -= bytes;
      this.#grantWaiting();
    };
  }

  #grantWaiting(): void {
    while (this.#waiting.length > 0 && this.#fits(this.#waiting[0]!.bytes)) {
      this.#waiting.shift()!.grant();
    }
  }
}

function stopped(): Error {
  return new DOMException('stopped while waiting to send', 'AbortError');
}

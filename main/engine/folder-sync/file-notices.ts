// What the folder sync tells the user through the activity list: each problem once (a
// symlink loop is not news at every rescan), and local deletions gathered per brand, so
// that deleting a folder of 500 files makes one notice, not 500.
import type { EngineEvents } from '../core/engine-events.ts';
import type { TypedEmitter } from '../queue/index.ts';

type Notice = EngineEvents['notice'];

interface DeletedBatch {
  folder: string;
  /** message → paths */
  byMessage: Map<string, string[]>;
}

const MAX_REMEMBERED = 10_000;
const MAX_NAMED = 10;

export class FileNotices {
  readonly #events: TypedEmitter<EngineEvents>;
  readonly #flushMs: number;
  readonly #told = new Set<string>();
  readonly #deleted = new Map<string, DeletedBatch>();
  #timer: NodeJS.Timeout | undefined;

  constructor(events: TypedEmitter<EngineEvents>, options: { flushMs?: number } = {}) {
    this.#events = events;
    this.#flushMs = options.flushMs ?? 1000;
  }

  tell(notice: Notice): void {
    this.#events.emit('notice', notice);
  }

  /** Tells `notice` unless the same key was told before in this process. */
  once(key: string, notice: Notice): void {
    if (this.#told.has(key)) return;
    if (this.#told.size >= MAX_REMEMBERED) this.#told.clear();
    this.#told.add(key);
    this.tell(notice);
  }

  /** Forgets that `key` was told (the problem went away, so tell it again if it returns). */
  forget(key: string): void {
    this.#told.delete(key);
  }

  deleted(brandId: string, folder: string, relPath: string, message: string): void {
    let batch = this.#deleted.get(brandId);
    if (batch === undefined) {
      batch = { folder, byMessage: new Map() };
      this.#deleted.set(brandId, batch);
    }
    const paths = batch.byMessage.get(message) ?? [];
    paths.push(relPath);
    batch.byMessage.set(message, paths);
    this.#timer ??= setTimeout(() => this.flush(), this.#flushMs);
  }

  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const [brandId, batch] of this.#deleted) {
      for (const [message, paths] of batch.byMessage) {
        const named = paths
          .slice(0, MAX_NAMED)
          .map((p) => `"${p}"`)
          .join(', ');
        const more = paths.length > MAX_NAMED ? ` and ${paths.length - MAX_NAMED} more` : '';
        this.tell({
          level: 'info',
          code: 'FILE_DELETED_LOCALLY',
          brandId,
          message:
            paths.length === 1
              ? `${batch.folder}/${paths[0]}: ${message}`
              : `${paths.length} files deleted in "${batch.folder}" (${named}${more}): ${message}`,
        });
      }
    }
    this.#deleted.clear();
  }

  close(): void {
    this.flush();
  }
}

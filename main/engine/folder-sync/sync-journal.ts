// What the folder sync did, in order, so that a sync pass can report its own share: files
// uploaded, found already on the service, skipped and failed (with reasons), deleted
// locally, logos set. Kept in memory, bounded, and only while a pass holds it: a `run` that
// no pass reports on keeps nothing (the store holds the lasting state, and the activity).
import type { FeatureReport } from '../core/engine.ts';

interface EntryBase {
  at: number;
  brandId: string;
  /** The brand folder's name when it happened. */
  folder: string;
  path: string;
}

export type JournalEntry =
  | (EntryBase & { type: 'uploaded'; imageId: string | null; existing: boolean })
  /** A copy, move or rename of bytes already on the service: nothing was sent. */
  | (EntryBase & { type: 'already'; imageId: string | null })
  | (EntryBase & { type: 'skipped'; code: string; reason: string })
  | (EntryBase & { type: 'failed'; code: string; reason: string; willRetry: boolean })
  | (EntryBase & { type: 'deleted'; message: string })
  | (EntryBase & { type: 'logo'; status: string | null });

type Distribute<T> = T extends unknown ? Omit<T, 'at'> : never;
export type JournalInput = Distribute<JournalEntry>;

// Enough for the listing of a large first pass; a long `run` keeps only the most recent.
const MAX_ENTRIES = 20_000;
// Lines per kind in the human summary; --json carries every entry.
const MAX_LINES = 25;

export class SyncJournal {
  readonly #now: () => number;
  #entries: JournalEntry[] = [];
  #dropped = 0;
  #holds = 0;
  readonly #listeners = new Set<(entry: JournalEntry) => void>();

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Keeps entries from now until the release is called; the last release drops them all. */
  hold(): () => void {
    this.#holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#holds > 0) return;
      this.#entries = [];
      this.#dropped = 0;
    };
  }

  /** Hears every entry as it happens, held or not (`run` prints them); returns the unsubscribe. */
  onEntry(listener: (entry: JournalEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  add(entry: JournalInput): void {
    const full = { ...entry, at: this.#now() } as JournalEntry;
    for (const listener of this.#listeners) listener(full);
    if (this.#holds === 0) return;
    this.#entries.push(full);
    if (this.#entries.length > MAX_ENTRIES) {
      const cut = this.#entries.length - MAX_ENTRIES;
      this.#entries = this.#entries.slice(cut);
      this.#dropped += cut;
    }
  }

  since(at: number): JournalEntry[] {
    // Entries are in time order: find the first one at or after `at`.
    let lo = 0;
    let hi = this.#entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.#entries[mid] as JournalEntry).at < at) lo = mid + 1;
      else hi = mid;
    }
    return this.#entries.slice(lo);
  }

  /**
   * The folder section of a sync report. `pending`: files still waiting to be complete or
   * sent; `heldUntil`: the service asked to wait until then (that is why they wait).
   */
  report(since: number, pending: number, heldUntil?: number): FeatureReport {
    const entries = this.since(since);
    const of = <T extends JournalEntry['type']>(type: T) =>
      entries.filter((e): e is Extract<JournalEntry, { type: T }> => e.type === type);
    const uploaded = of('uploaded');
    const already = of('already');
    const skipped = of('skipped');
    const failed = of('failed');
    const deleted = of('deleted');
    const logos = of('logo');
    const where = (e: EntryBase) => `${e.folder}/${e.path}`;
    const summary: string[] = [];
    const counts = [
      [uploaded.length, 'uploaded'],
      [already.length, 'already on the service (copies or moves: nothing sent)'],
      [skipped.length, 'skipped'],
      [failed.length, 'failed'],
      [deleted.length, 'deleted on this computer'],
    ] as const;
    const nonZero = counts.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`);
    if (nonZero.length > 0) summary.push(`Files: ${nonZero.join(', ')}.`);
    const list = <T extends EntryBase>(items: T[], line: (e: T) => string, more: string) => {
      for (const e of items.slice(0, MAX_LINES)) summary.push(line(e));
      if (items.length > MAX_LINES) summary.push(`  … and ${items.length - MAX_LINES} ${more}`);
    };
    list(
      uploaded,
      (e) => `Uploaded ${where(e)}${e.existing ? ' (the service already had it)' : ''}`,
      'more uploaded',
    );
    list(skipped, (e) => `Skipped ${where(e)}: ${e.reason}`, 'more skipped (brand-sync files)');
    list(
      failed,
      (e) => `Failed ${where(e)}: ${e.code}: ${e.reason}${e.willRetry ? ' (will retry)' : ''}`,
      'more failed (brand-sync files)',
    );
    list(logos, (e) => `Logo of ${e.folder} set from ${e.path}`, 'more logos');
    if (deleted.length > 0) {
      summary.push(
        `Deleted on this computer only: ${deleted
          .slice(0, MAX_LINES)
          .map(where)
          .join(', ')}${deleted.length > MAX_LINES ? ', …' : ''} (the service keeps its copies).`,
      );
    }
    const truncated = this.#dropped > 0 && entries.length === this.#entries.length;
    if (truncated) summary.push(`(Only the last ${MAX_ENTRIES} files of this pass are listed.)`);
    if (pending > 0 && heldUntil !== undefined) {
      const until = new Date(heldUntil).toLocaleTimeString('en-GB');
      summary.push(
        `${pending} file${pending === 1 ? ' waits' : 's wait'} because the service asked to wait until ${until}: uploaded after that.`,
      );
    } else if (pending > 0) {
      summary.push(
        `${pending} file${pending === 1 ? ' is' : 's are'} still being written or held by another program: uploaded once complete.`,
      );
    }
    const strip = ({ at: _at, type: _type, ...rest }: JournalEntry) => rest;
    return {
      summary,
      uploaded: uploaded.map(strip),
      alreadyOnService: already.map(strip),
      skipped: skipped.map(strip),
      failed: failed.map(strip),
      deleted: deleted.map(strip),
      logos: logos.map(strip),
      pending,
      ...(heldUntil === undefined ? {} : { heldUntil: new Date(heldUntil).toISOString() }),
      truncated,
    };
  }
}

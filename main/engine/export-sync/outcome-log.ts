// What the jobs of a feature ended with, kept in memory for the report of a sync pass
// (`report(since)`): the pass and its jobs run in one process. Entries carry the time the
// run started, not ended: the last run of one pass may end in the millisecond the next
// pass begins, but it started before.

const MAX_ENTRIES = 10_000;

export class OutcomeLog<O extends string> {
  private readonly entries: { at: number; subject: string; outcome: O }[] = [];

  add(at: number, subject: string, outcome: O): void {
    this.entries.push({ at, subject, outcome });
    if (this.entries.length > MAX_ENTRIES)
      this.entries.splice(0, this.entries.length - MAX_ENTRIES);
  }

  /** How many of each outcome since `since`, zero included for each of `outcomes`. */
  count(since: number, outcomes: readonly O[]): Record<O, number> {
    const counts = Object.fromEntries(outcomes.map((o) => [o, 0])) as Record<O, number>;
    for (const entry of this.entries) {
      if (entry.at >= since) counts[entry.outcome] = (counts[entry.outcome] ?? 0) + 1;
    }
    return counts;
  }
}

/** "2 installed, 1 unchanged": the non-zero counts, or "nothing to do". */
export function countsLine(counts: Record<string, number>, labels: Record<string, string>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([outcome, n]) => `${n} ${labels[outcome] ?? outcome}`);
  return parts.length === 0 ? 'nothing to do' : parts.join(', ');
}

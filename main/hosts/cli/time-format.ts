// How the CLI says when something happened: "just now", "5 min ago", "in 2 min", "never".

/** Relative time of an ISO timestamp (or ms) against `now`. */
export function ago(at: string | number | null | undefined, now: number = Date.now()): string {
  if (at === null || at === undefined) return 'never';
  const ms = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(ms)) return 'unknown';
  const delta = now - ms;
  const future = delta < 0;
  const s = Math.round(Math.abs(delta) / 1000);
  const text =
    s < 10
      ? null
      : s < 90
        ? `${s} s`
        : s < 90 * 60
          ? `${Math.round(s / 60)} min`
          : s < 36 * 3600
            ? `${Math.round(s / 3600)} h`
            : `${Math.round(s / 86400)} d`;
  if (text === null) return future ? 'in a moment' : 'just now';
  return future ? `in ${text}` : `${text} ago`;
}

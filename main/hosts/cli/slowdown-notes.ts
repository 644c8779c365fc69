// One line per slowdown, not one per 429: the service's pauses come in runs (each 429 of a
// burst closes the gate again for a second or two), and a person needs to hear of the run
// once, with the time it asked us to wait until.
export interface PauseGate {
  onChange(listener: (pausedUntil: number | undefined) => void): () => void;
}

/** Pauses this close to the end of the last one said belong to the same slowdown. */
export const SAME_SLOWDOWN_MS = 60_000;

/** Calls `say(until)` once per slowdown; returns the unsubscribe. */
export function onSlowdown(
  gate: PauseGate,
  say: (until: number) => void,
  now: () => number = Date.now,
): () => void {
  let saidUntil: number | undefined;
  return gate.onChange((until) => {
    if (until === undefined) return;
    const same = saidUntil !== undefined && now() <= saidUntil + SAME_SLOWDOWN_MS;
    if (same) {
      saidUntil = Math.max(saidUntil as number, until);
      return;
    }
    saidUntil = until;
    say(until);
  });
}

/** "14:53", the way a wait is said. */
export function clockTime(at: number): string {
  return new Date(at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
}

// `wait=true` on a GET: the service holds the connection until a terminal status or the
// wait runs out, so the request's own time limit grows by the wait.
import { WAIT_SECONDS, waitQuery } from './assumed.ts';
import { requireIntInRange } from './input.ts';

export interface LongPollOptions {
  /** Hold the connection until the resource reaches a terminal status or `waitSeconds` pass. */
  wait?: boolean;
  waitSeconds?: number;
}

/** The query and extra time limit of the call (nothing without `wait`), bounds checked. */
export function longPoll(
  options: LongPollOptions,
  endpoint: string,
): { query?: ReturnType<typeof waitQuery>; extraTimeoutMs?: number } {
  if (!options.wait) return {};
  const seconds = options.waitSeconds ?? WAIT_SECONDS.default;
  requireIntInRange(seconds, 'waitSeconds', WAIT_SECONDS.min, WAIT_SECONDS.max, endpoint);
  return { query: waitQuery(seconds), extraTimeoutMs: seconds * 1000 };
}

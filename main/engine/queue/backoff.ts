// Exponential backoff with a cap and jitter, so that many jobs failing together (the
// service had a bad minute) do not come back together.

export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
}

export const defaultBackoff: BackoffPolicy = { baseMs: 1_000, capMs: 5 * 60_000 };

/**
 * Delay before retry number `failures` (1 = after the first failure): base·2^(n-1),
 * capped, then "equal jitter": between half and all of it.
 */
export function backoffDelay(
  failures: number,
  policy: BackoffPolicy,
  random: () => number,
): number {
  const exponent = Math.min(Math.max(failures, 1) - 1, 30);
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

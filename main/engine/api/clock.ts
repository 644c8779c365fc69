// Time as the client sees it. Injectable so that tests can run the client on the same
// accelerated clock as the simulator instead of sleeping for real.
import { ApiError, CLIENT_ERROR_CODES } from './errors.ts';

export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects with an ABORTED ApiError when the signal fires first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export function abortedError(endpoint: string): ApiError {
  return new ApiError({
    kind: 'aborted',
    code: CLIENT_ERROR_CODES.aborted,
    status: 0,
    message: 'The request was cancelled.',
    endpoint,
  });
}

export function throwIfAborted(signal: AbortSignal | undefined, endpoint: string): void {
  if (signal?.aborted) throw abortedError(endpoint);
}

function sleepReal(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError('wait'));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortedError('wait'));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const realClock: Clock = { now: () => Date.now(), sleep: sleepReal };

/**
 * A clock running `speed` times faster than real time, starting at the real time now
 * (the simulator's `speed` option works the same way).
 */
export function scaledClock(speed: number): Clock {
  if (!(speed > 0)) throw new RangeError(`clock speed must be > 0, got ${speed}`);
  const origin = Date.now();
  return {
    now: () => origin + (Date.now() - origin) * speed,
    sleep: (ms, signal) => sleepReal(ms / speed, signal),
  };
}

// Why a command waiting on the queue should stop waiting: the account is refused, the
// service stays unreachable past a grace period, the user paused the queue, or the caller
// was interrupted. `sync --once` and the one-job commands stop on the same conditions.
import type { JobQueue } from './job-queue.ts';

export interface QueueHalt {
  code: string;
  message: string;
}

export interface QueueHaltOptions {
  signal?: AbortSignal;
  /** How long the service may stay unreachable before the wait ends (default 15 s). */
  offlineGraceMs?: number;
  /** What an interruption (the signal) is called in the halt's message. */
  abortedMessage?: string;
}

/** Calls onHalt once, when the queue cannot make progress; returns the function that stops watching. */
export function watchQueueHalt(
  queue: JobQueue,
  options: QueueHaltOptions,
  onHalt: (halt: QueueHalt) => void,
): () => void {
  const grace = options.offlineGraceMs ?? 15_000;
  let offlineTimer: NodeJS.Timeout | undefined;
  let done = false;
  const stop = (): void => {
    done = true;
    clearTimeout(offlineTimer);
    offStatus();
    options.signal?.removeEventListener('abort', onAbort);
  };
  const halt = (value: QueueHalt): void => {
    if (done) return;
    stop();
    onHalt(value);
  };
  const check = (): void => {
    const status = queue.status();
    const account = status.conditions.find((c) => c.name === 'account');
    if (account) return halt({ code: account.code, message: account.message });
    const offline = status.conditions.find((c) => c.name === 'offline');
    if (offline === undefined) {
      clearTimeout(offlineTimer);
      offlineTimer = undefined;
    } else if (offlineTimer === undefined) {
      offlineTimer = setTimeout(
        () =>
          halt({ code: offline.code, message: `the service is unreachable: ${offline.message}` }),
        grace,
      );
    }
    if (status.userPaused) {
      halt({ code: 'QUEUE_PAUSED', message: 'the queue is paused; resume it first' });
    }
  };
  const onAbort = (): void =>
    halt({ code: 'ABORTED', message: options.abortedMessage ?? 'interrupted' });
  const offStatus = queue.events.on('queue:status', check);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  else check();
  return stop;
}

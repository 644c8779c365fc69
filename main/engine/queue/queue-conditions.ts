// The queue-wide conditions (offline, the account refused): while one holds, jobs wait and
// one probe job at a time tests whether it is over, at a growing interval. What a finished
// run proves ends them.
import type { BackoffPolicy } from './backoff.ts';
import type { QueueClock } from './queue-clock.ts';
import type { QueueCondition, QueueConditionName } from './queue-events.ts';

interface ConditionState extends QueueCondition {
  probeDelayMs: number;
}

export interface QueueConditionsOptions {
  clock: QueueClock;
  /** Delays between offline probes: from base, doubling, capped. */
  offlineProbe: BackoffPolicy;
  /** Delay between probes while the account is refused. */
  accountProbeMs: number;
  /** A condition began, changed or ended (the queue's status changed). */
  changed: () => void;
}

export class QueueConditions {
  private readonly held = new Map<QueueConditionName, ConditionState>();
  private readonly options: QueueConditionsOptions;

  constructor(options: QueueConditionsOptions) {
    this.options = options;
  }

  get size(): number {
    return this.held.size;
  }

  /** The conditions as the queue's status shows them. */
  list(): QueueCondition[] {
    return [...this.held.values()].map(({ probeDelayMs: _, ...condition }) => condition);
  }

  /** When the next probe may start (while any condition holds). */
  nextProbeAt(): number {
    return Math.min(...[...this.held.values()].map((c) => c.nextProbeAt));
  }

  raise(name: QueueConditionName, reason: { code: string; message: string }): void {
    const now = this.options.clock.now();
    const current = this.held.get(name);
    let delay: number;
    if (name === 'account') delay = this.options.accountProbeMs;
    else if (current === undefined) delay = this.options.offlineProbe.baseMs;
    else delay = Math.min(this.options.offlineProbe.capMs, current.probeDelayMs * 2);
    this.held.set(name, {
      name,
      code: reason.code,
      message: reason.message,
      since: current?.since ?? now,
      nextProbeAt: now + delay,
      probeDelayMs: delay,
    });
    this.options.changed();
  }

  /** Ends a condition; false when it did not hold. Says nothing: the caller does. */
  clear(name: QueueConditionName): boolean {
    return this.held.delete(name);
  }

  /**
   * What a finished run proves: a success means online and authorised; any answer from
   * the service (a 429, a 5xx) means online.
   */
  evidence(kind: 'success' | 'answered' | 'none'): void {
    if (kind === 'none') return;
    let changed = this.held.delete('offline');
    if (kind === 'success') changed = this.held.delete('account') || changed;
    if (changed) this.options.changed();
  }
}

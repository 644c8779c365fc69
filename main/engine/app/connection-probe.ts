// While a window is open and the service cannot be reached, the service is asked again with
// a short backoff (1 s doubling, about 10 s at most) instead of the queue's own (up to a
// minute between probes, and only when a job is waiting): coming back is noticed within
// seconds. The probe is one GET /credits through the key's pacer; its answer is kept (the
// personal balance) and ends the offline condition, and a reconcile catches up on what
// changed meanwhile. With no window open, the queue's own probes are enough.
import { isApiError } from '../api/index.ts';
import type { Engine } from '../core/engine.ts';

export interface ConnectionProbeOptions {
  /** Whether a window is watching now. */
  watched: () => boolean;
  firstMs?: number;
  maxMs?: number;
}

export const PROBE_FIRST_MS = 1_000;
export const PROBE_MAX_MS = 10_000;

export class ConnectionProbe {
  readonly #engine: Engine;
  readonly #options: ConnectionProbeOptions;
  readonly #off: () => void;
  #timer: NodeJS.Timeout | null = null;
  #delay: number;
  #probing = false;
  #stopped = false;

  constructor(engine: Engine, options: ConnectionProbeOptions) {
    this.#engine = engine;
    this.#options = options;
    this.#delay = options.firstMs ?? PROBE_FIRST_MS;
    this.#off = engine.queue.events.on('queue:status', () => this.check());
  }

  /** Looks at the queue's conditions (and whether someone watches) and arms or disarms. */
  check(): void {
    if (this.#stopped) return;
    if (!this.#offline() || !this.#options.watched()) {
      this.#disarm();
      if (!this.#offline()) this.#delay = this.#options.firstMs ?? PROBE_FIRST_MS;
      return;
    }
    if (this.#timer === null && !this.#probing) this.#arm();
  }

  stop(): void {
    this.#stopped = true;
    this.#off();
    this.#disarm();
  }

  #offline(): boolean {
    return this.#engine.queue.status().conditions.some((c) => c.name === 'offline');
  }

  #arm(): void {
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#probe();
    }, this.#delay);
    this.#timer.unref();
  }

  #disarm(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  async #probe(): Promise<void> {
    if (this.#stopped || !this.#offline()) return;
    this.#probing = true;
    const engine = this.#engine;
    let answered: boolean;
    try {
      const credits = await engine.client.getCredits({});
      engine.store.workspaces.setCredits(null, credits);
      engine.events.emit('credits:changed', { workspaceId: null });
      answered = true;
    } catch (error) {
      // Any answer of the service (a 429, a 5xx, a refusal) says it can be reached.
      answered = isApiError(error) && error.status > 0;
    } finally {
      this.#probing = false;
    }
    if (this.#stopped) return;
    if (answered) {
      this.#delay = this.#options.firstMs ?? PROBE_FIRST_MS;
      engine.queue.clearCondition('offline');
      await engine.reconcile().catch(() => undefined);
      return;
    }
    this.#delay = Math.min(this.#options.maxMs ?? PROBE_MAX_MS, this.#delay * 2);
    this.check();
  }
}

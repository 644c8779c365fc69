// Following a long operation of the service to its end (a brand analysing, an edit being
// prepared or waiting for an answer, an image edit): one follow per resource at a time, each
// state it passes through reported once. Where the service offers a long poll, the next look
// waits on the service (and a look that comes back at once backs off like a poll); elsewhere
// looks are spaced with a backoff: seconds at first, about a minute at most. A failed look
// (offline, a 5xx) backs off the same way; a resource the service no longer has ends the
// follow. Calls go through the API client, so through the key's pacer.
import { isApiError, type ApiError } from '../api/index.ts';
import type { JobQueue } from '../queue/index.ts';

export interface FollowBackoff {
  /** The first wait between two looks. */
  firstMs: number;
  /** The longest wait. */
  maxMs: number;
  /** Each wait is the last one times this. */
  factor: number;
}

/** Seconds at first, about a minute at most. */
export const DEFAULT_FOLLOW_BACKOFF: FollowBackoff = { firstMs: 2_000, maxMs: 60_000, factor: 1.5 };

/** A long poll that came back sooner than this did not hold: treat it as a poll. */
const HELD_MS = 1_000;

export interface FollowSpec<T> {
  /** One follow per key ('brand:<id>'): a second follow of the same key joins the first. */
  key: string;
  /** One look at the resource; `wait`: hold the connection (only when `longPoll`). */
  look: (options: { wait: boolean; signal: AbortSignal }) => Promise<T>;
  longPoll: boolean;
  /** Whether the resource reached a state that ends the follow. */
  settled: (value: T) => boolean;
  /** What is compared between two looks to tell a change (its status, say). */
  stateOf: (value: T) => string;
  /** Called with the first answer and with each answer whose state changed. */
  changed: (value: T, previous: string | null) => void;
  /** The service no longer has the resource (a 404), or refused it for good (a 4xx). */
  gone?: (code: string) => void;
}

/** Told what the looks learn of the connection (the queue's offline condition). */
export interface FollowConnection {
  /** A look got no answer at all. */
  lost(error: ApiError): void;
  /** A look was answered. */
  answered(): void;
}

/**
 * A look without an answer means the service cannot be reached, as a failed job does (the
 * window says offline, and probes while open); an answered look means it is back.
 */
export function queueConnection(queue: JobQueue): FollowConnection {
  const offline = () => queue.status().conditions.some((c) => c.name === 'offline');
  return {
    lost(error) {
      if (!offline()) queue.setCondition('offline', { code: error.code, message: error.message });
    },
    answered() {
      if (offline()) queue.clearCondition('offline');
    },
  };
}

export interface FollowerOptions {
  backoff?: Partial<FollowBackoff>;
  now?: () => number;
  /** Waits ms (resolves early on abort); a test may pass its own clock. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  connection?: FollowConnection;
}

export class Follower {
  readonly #backoff: FollowBackoff;
  readonly #now: () => number;
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly #connection: FollowConnection | undefined;
  readonly #running = new Map<string, Promise<unknown>>();
  #abort = new AbortController();

  constructor(options: FollowerOptions = {}) {
    this.#backoff = { ...DEFAULT_FOLLOW_BACKOFF, ...options.backoff };
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? sleep;
    this.#connection = options.connection;
  }

  /** The keys followed now. */
  keys(): string[] {
    return [...this.#running.keys()];
  }

  has(key: string): boolean {
    return this.#running.has(key);
  }

  /**
   * Follows until the resource settles; resolves with its last state (undefined when the
   * follow was stopped or the resource is gone). Never rejects.
   */
  follow<T>(spec: FollowSpec<T>): Promise<T | undefined> {
    const running = this.#running.get(spec.key);
    if (running !== undefined) return running as Promise<T | undefined>;
    const signal = this.#abort.signal;
    const done = this.#run(spec, signal).finally(() => {
      if (this.#running.get(spec.key) === done) this.#running.delete(spec.key);
    });
    this.#running.set(spec.key, done);
    return done;
  }

  /** Stops every follow (the engine stops); the follower can be used again afterwards. */
  stop(): void {
    this.#abort.abort();
    this.#abort = new AbortController();
    this.#running.clear();
  }

  async #run<T>(spec: FollowSpec<T>, signal: AbortSignal): Promise<T | undefined> {
    const { firstMs, maxMs, factor } = this.#backoff;
    let delay = firstMs;
    let previous: string | null = null;
    let first = true;
    while (!signal.aborted) {
      const startedAt = this.#now();
      let value: T;
      try {
        value = await spec.look({ wait: spec.longPoll && !first, signal });
      } catch (error) {
        if (signal.aborted) return undefined;
        if (isApiError(error)) {
          if (error.kind === 'network') this.#connection?.lost(error);
          else this.#connection?.answered();
        }
        if (isGone(error)) {
          spec.gone?.(isApiError(error) ? error.code : 'GONE');
          return undefined;
        }
        await this.#sleep(delay, signal);
        delay = Math.min(maxMs, delay * factor);
        continue;
      }
      if (signal.aborted) return undefined;
      this.#connection?.answered();
      const state = spec.stateOf(value);
      const changed = first || state !== previous;
      if (changed) {
        const before = first ? null : previous;
        previous = state;
        try {
          spec.changed(value, before);
        } catch {
          // A listener's failure is not the follow's: the next change is still reported.
        }
        delay = firstMs;
      }
      if (spec.settled(value)) return value;
      const wasFirst = first;
      first = false;
      if (spec.longPoll) {
        // After the first look, and after a wait the service held or ended with news, the
        // next look waits on the service by itself: ask again at once.
        if (wasFirst || changed || this.#now() - startedAt >= HELD_MS) continue;
      }
      await this.#sleep(delay, signal);
      delay = Math.min(maxMs, delay * factor);
    }
    return undefined;
  }
}

/** Errors after which looking again cannot help: the resource is gone or refused for good. */
function isGone(error: unknown): boolean {
  if (!isApiError(error)) return false;
  return error.kind === 'client' || error.kind === 'forbidden' || error.kind === 'banned';
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    timer.unref?.();
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

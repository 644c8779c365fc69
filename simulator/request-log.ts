// The request log: one entry per request that reached the simulator (control requests aside).
// It never holds an API key: only the key's label (key1, key2, … in the order keys were added).
// Tests read it to prove, for example, that no request arrived inside a Retry-After window
// (`at` and `retryAfter`), or that one idempotency key created exactly one brand (`created`).

export interface LogEntry {
  seq: number;
  /** Real arrival time, ms since 1970 (Date.now()). */
  at: number;
  /** Simulated arrival time, ms since 1970. */
  simAt: number;
  method: string;
  /** The route template, e.g. "GET /v1/brands/{id}"; null when no route matched. */
  route: string | null;
  /** The path without the query string. */
  path: string;
  /** HTTP status sent; null when no answer was sent (connection reset). */
  status: number | null;
  /**
   * processed: the handler ran; rejected: stopped before it (auth, ban, rate limit, no route);
   * replayed: an idempotent replay of a stored result; or the injected fault's kind
   * (reset-before, 5xx, 429, 429-no-retry-after, reset-after, 5xx-after, truncate, malformed).
   */
  outcome: string;
  /** Label of the credential used (key1, …), "token" for signed uploads, null when none matched. */
  key: string | null;
  idempotencyKey: string | null;
  /** Error code of an error answer. */
  code: string | null;
  /** Seconds of the Retry-After header sent with a 429, or null. */
  retryAfter: number | null;
  /** A resource this request created (brand, brand-skill, image edit, export, upload). */
  created: { kind: string; id: string } | null;
  /** Real milliseconds from arrival to the end of the answer. */
  durationMs: number | null;
  /** Which TCP connection carried it (1, 2, … in order of first use): shows keep-alive reuse. */
  connection: number;
}

export class RequestLog {
  #entries: LogEntry[] = [];
  #seq = 0;
  readonly limit: number;

  constructor(limit = 200_000) {
    this.limit = limit;
  }

  start(init: Pick<LogEntry, 'method' | 'path' | 'simAt' | 'connection'>): LogEntry {
    const entry: LogEntry = {
      seq: ++this.#seq,
      at: Date.now(),
      simAt: init.simAt,
      method: init.method,
      route: null,
      path: init.path,
      status: null,
      outcome: 'pending',
      key: null,
      idempotencyKey: null,
      code: null,
      retryAfter: null,
      created: null,
      durationMs: null,
      connection: init.connection,
    };
    this.#entries.push(entry);
    if (this.#entries.length > this.limit)
      this.#entries.splice(0, this.#entries.length - this.limit);
    return entry;
  }

  entries(filter: { route?: string; method?: string; since?: number } = {}): LogEntry[] {
    return this.#entries.filter(
      (e) =>
        (filter.route === undefined || e.route === filter.route) &&
        (filter.method === undefined || e.method === filter.method) &&
        (filter.since === undefined || e.seq > filter.since),
    );
  }

  clear(): void {
    this.#entries = [];
  }
}

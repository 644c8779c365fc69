// How the CLI speaks: human text or one JSON document on stdout, one clear error line on
// stderr, and the exit codes of docs/product.md. Everything written passes the secret filter,
// so the API key cannot reach the terminal even through a message we did not write.
import { ApiError, describeApiError } from '../../engine/api/index.ts';

/** Exit codes (docs/product.md, The command line is a contract). */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Bad usage found after parsing (a missing setting, an argument commander cannot check). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The operation failed for a reason already phrased for the user. */
export class CommandFailure extends Error {
  override name = 'CommandFailure';
  readonly code: string;
  readonly data: unknown;
  constructor(code: string, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

export interface Streams {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export class Output {
  readonly json: boolean;
  readonly #streams: Streams;
  readonly #secrets: string[];

  constructor(options: {
    json: boolean;
    secrets?: readonly (string | undefined)[];
    streams?: Streams;
  }) {
    this.json = options.json;
    this.#secrets = (options.secrets ?? []).filter(
      (s): s is string => typeof s === 'string' && s.length > 0,
    );
    this.#streams = options.streams ?? {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
    };
  }

  /** Adds a secret to hide from everything written (the key, once it is known). */
  addSecret(secret: string | undefined): void {
    if (secret) this.#secrets.push(secret);
  }

  /** The result: `human` lines, or `doc` as one JSON document with --json. */
  result(doc: unknown, human: () => string | string[]): void {
    if (this.json) {
      this.#streams.stdout(this.#redact(JSON.stringify(doc, null, 2)) + '\n');
      return;
    }
    const text = human();
    const lines = Array.isArray(text) ? text : [text];
    if (lines.length > 0) this.#streams.stdout(this.#redact(lines.join('\n')) + '\n');
  }

  /** Progress and notes for people: stderr, so stdout stays the result. Silent with --json. */
  note(text: string): void {
    if (!this.json) this.#streams.stderr(this.#redact(text) + '\n');
  }

  /** One event of a long-running command: a JSON line on stdout with --json, else a note. */
  event(doc: unknown, line: string): void {
    if (this.json) this.#streams.stdout(this.#redact(JSON.stringify(doc)) + '\n');
    else this.note(line);
  }

  /** One problem line on stderr, also with --json (whose document already went to stdout). */
  problem(line: string): void {
    this.#streams.stderr(this.#redact(`brand-sync: ${line}`) + '\n');
  }

  /** One line on stderr (and, with --json, an error document on stdout); returns the exit code. */
  failure(error: unknown): ExitCode {
    const { line, code, doc } = describeFailure(error);
    this.#streams.stderr(this.#redact(`brand-sync: ${line}`) + '\n');
    if (this.json)
      this.#streams.stdout(this.#redact(JSON.stringify({ error: doc }, null, 2)) + '\n');
    return code;
  }

  /** Commander's own usage message (already one line). */
  usage(message: string): void {
    this.#streams.stderr(this.#redact(message.trimEnd()) + '\n');
  }

  #redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.split(secret).join('[redacted]');
    return out;
  }
}

function describeFailure(error: unknown): {
  line: string;
  code: ExitCode;
  doc: Record<string, unknown>;
} {
  if (error instanceof ApiError) {
    const code = error.code === 'INVALID_INPUT' ? EXIT.usage : EXIT.failed;
    return { line: describeApiError(error), code, doc: error.toJSON() };
  }
  if (error instanceof UsageError) {
    return {
      line: error.message,
      code: EXIT.usage,
      doc: { code: 'USAGE', message: error.message },
    };
  }
  if (error instanceof CommandFailure) {
    return {
      line: `${error.code}: ${error.message}`,
      code: EXIT.failed,
      doc: {
        code: error.code,
        message: error.message,
        ...(error.data === undefined ? {} : { data: error.data }),
      },
    };
  }
  // A bug of ours: still one line, never a stack trace.
  const message = error instanceof Error ? error.message : String(error);
  return {
    line: `INTERNAL: ${message}`,
    code: EXIT.failed,
    doc: { code: 'INTERNAL', message },
  };
}

// ---- formatting helpers for human output -------------------------------------------------

let stringWidth: ((text: string) => number) | undefined;

/**
 * Loads string-width, which human output pads by. Only for human output: its module sets up an
 * Intl.Segmenter and Unicode tables at load, some 30 to 50 ms of every start, and a `--json`
 * run (a script, cron) never pads a column.
 */
export async function loadDisplayWidth(): Promise<void> {
  stringWidth ??= (await import('string-width')).default;
}

function displayWidth(text: string): number {
  if (stringWidth === undefined)
    throw new Error('Human output was formatted before loadDisplayWidth() ran.');
  return stringWidth(text);
}

/**
 * Left-aligned columns with a header row, padded by display width (string-width): a wide
 * character (漢字) or an emoji takes two columns on a terminal, a combining accent none, so
 * names of any script line up.
 */
export function table(headers: string[], rows: string[][]): string[] {
  const widths = headers.map((h, i) =>
    Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ''))),
  );
  const pad = (cell: string, width: number) =>
    cell + ' '.repeat(Math.max(0, width - displayWidth(cell)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : pad(cell, widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)];
}

/** "key: value" lines, skipping empty values. */
export function fields(
  entries: Array<[string, string | number | boolean | null | undefined]>,
): string[] {
  const shown = entries.filter(([, v]) => v !== undefined && v !== null && v !== '');
  const width = Math.max(0, ...shown.map(([k]) => displayWidth(k)));
  return shown.map(([k, v]) => `${k}:${' '.repeat(width - displayWidth(k) + 1)} ${String(v)}`);
}

// Glue between commander and a command's handler: builds the context from the parsed
// options, runs the handler, and turns its outcome (or any error) into an exit code.
import type { Command } from 'commander';
import { createContext, type CliContext, type GlobalOptions } from './context.ts';
import { EXIT, type ExitCode, loadDisplayWidth, type Streams, Output } from './output.ts';

export interface CliDeps {
  env: Record<string, string | undefined>;
  signal: AbortSignal;
  streams?: Streams;
  /** Receives the exit code of the command that ran. */
  setExitCode: (code: ExitCode) => void;
}

export type Handler = (ctx: CliContext, command: Command) => Promise<ExitCode | void>;

/** A commander action running `handler` with a fresh context. */
export function action(deps: CliDeps, handler: Handler): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const options = command.optsWithGlobals<GlobalOptions>();
    const output = new Output({
      json: options.json === true,
      ...(deps.streams ? { streams: deps.streams } : {}),
    });
    try {
      if (options.json !== true) await loadDisplayWidth();
      const ctx = createContext(options, { env: deps.env, signal: deps.signal, output });
      deps.setExitCode((await handler(ctx, command)) ?? EXIT.ok);
    } catch (error) {
      deps.setExitCode(output.failure(error));
    }
  };
}

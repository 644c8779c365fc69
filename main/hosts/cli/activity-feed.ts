// What a long-running command (`run`, `demo`) tells the person watching it: notices and
// finished or failed jobs, one line each, on stderr (stdout stays for results).
import type { Engine } from '../../engine/core/engine.ts';
import type { Output } from './output.ts';

/** Prints the engine's activity as it happens; returns the function that stops it. */
export function followActivity(engine: Engine, output: Output): () => void {
  const time = (): string => new Date().toTimeString().slice(0, 8);
  const offs = [
    engine.events.on('notice', (n) => output.note(`${time()} ${n.level}: ${n.message}`)),
    engine.queue.events.on('job:done', ({ job }) => {
      const { area, subject } = engine.describe(job);
      output.note(`${time()} done: ${area} ${subject}`);
    }),
    engine.queue.events.on('job:failed', ({ job, error }) => {
      const { area, subject } = engine.describe(job);
      output.note(`${time()} failed: ${area} ${subject}: ${error.code}: ${error.message}`);
    }),
    engine.queue.events.on('queue:status', (status) => {
      for (const c of status.conditions) output.note(`${time()} paused: ${c.code}: ${c.message}`);
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}

/** Resolves when the signal fires (SIGINT/SIGTERM in the CLI). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
}

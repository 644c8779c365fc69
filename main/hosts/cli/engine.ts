// Commands that need the engine (sync, run, status, files, …) open it here, from the
// same resolved settings as every other command, and close it when they are done.
import { Engine } from '../../engine/core/engine.ts';
import { defaultFeatures } from '../../engine/core/features.ts';
import type { CliContext } from './context.ts';

/** Opens the engine on the configured data dir and sync root, with every feature. */
export function openEngine(ctx: CliContext): Engine {
  return Engine.open({
    dataDir: ctx.config.dataDir,
    root: ctx.config.root,
    client: ctx.client(),
    features: defaultFeatures,
  });
}

/** Runs `fn` with an open engine and always closes it (running jobs go back to the queue). */
export async function withEngine<T>(
  ctx: CliContext,
  fn: (engine: Engine) => Promise<T>,
): Promise<T> {
  const engine = openEngine(ctx);
  try {
    return await fn(engine);
  } finally {
    await engine.close();
  }
}

// Entry of the `brand-sync` bin: runs the command line with the real process around it.
import { runCli } from './program.ts';

const controller = new AbortController();
let signals = 0;
const stop = (): void => {
  // The first signal asks for a clean stop; a second one does not wait for it.
  if (++signals > 1) process.exit(130);
  controller.abort();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  signal: controller.signal,
});
process.off('SIGINT', stop);
process.off('SIGTERM', stop);

// What `serve` and `demo` share: the app runtime on the data dir, the headless host on
// 127.0.0.1, the URL on a line of its own on stdout, then the engine's activity on stderr
// until SIGINT/SIGTERM, and a clean shutdown (running jobs go back to the queue).
import type { AppRuntimeOptions } from '../../engine/app/app-runtime.ts';
import type { HeadlessHost } from '../headless/index.ts';
import { followActivity, untilAborted } from './activity-feed.ts';
import type { CliContext } from './context.ts';
import { CommandFailure, UsageError } from './output.ts';

export const DEFAULT_PORT = 4646;

export interface WindowHostOptions {
  runtime: Omit<AppRuntimeOptions, 'host'>;
  /** undefined: the default port, or a free one when it is taken. */
  port: number | undefined;
  open: boolean;
  /** Lines printed after the URL (how to reach a demo from another terminal, …). */
  after?: (url: string) => string[];
  /** Runs once the host is up; returns its own cleanup. */
  started?: (url: string) => void | (() => void);
}

export function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535 (got "${value}").`);
  }
  return port;
}

export async function runWindowHost(ctx: CliContext, options: WindowHostOptions): Promise<void> {
  // Loaded only here: no other command pays for fastify.
  const { startHeadlessHost, rendererDir, openWithDesktop } = await import('../headless/index.ts');
  const { AppRuntime } = await import('../../engine/app/app-runtime.ts');
  const dir = rendererDir();
  if (dir === null) {
    throw new CommandFailure(
      'WINDOW_NOT_BUILT',
      'the window is not built: run `npm run build:renderer` (npm start does it), then start again.',
    );
  }
  const app = await AppRuntime.start({
    ...options.runtime,
    host: {
      kind: 'browser',
      openPath: openWithDesktop,
      loginItemReason:
        'Starting at login is a setting of the desktop app; the browser window cannot start itself.',
    },
  });
  let stopFeed: (() => void) | undefined;
  let host: HeadlessHost | undefined;
  try {
    host = await startHeadlessHost({
      app,
      port: options.port ?? DEFAULT_PORT,
      portFallback: options.port === undefined,
      rendererDir: dir,
    });
    const url = host.url;
    ctx.output.result({ url, port: host.port, dataDir: app.dataDir, root: app.root }, () => [
      'Brand Sync is running. Open this URL in a browser on this computer:',
      url,
      ...(options.after?.(url) ?? []),
      'Stop it with Ctrl-C.',
    ]);
    // The browser gets a one-time code, never the long-lived token: another program's command
    // line is readable by every user of the machine.
    if (options.open && !(await openWithDesktop(host.oneTimeUrl()))) {
      ctx.output.note('No browser could be opened here: open the URL above yourself.');
    }
    const cleanup = options.started?.(url);
    let engine = app.engine;
    if (engine !== null) stopFeed = followActivity(engine, ctx.output);
    const offSession = app.journal.subscribe((event) => {
      if (event.type !== 'session' || app.engine === engine) return;
      stopFeed?.();
      engine = app.engine;
      stopFeed = engine === null ? undefined : followActivity(engine, ctx.output);
    });
    await untilAborted(ctx.signal);
    offSession();
    if (typeof cleanup === 'function') cleanup();
    ctx.output.note('Stopping: running jobs go back to the queue…');
  } finally {
    stopFeed?.();
    await host?.close();
    await app.close();
  }
  ctx.output.note('Stopped.');
}

// Opens a URL or a folder with the desktop's own opener (xdg-open, open, explorer). The target
// is an argument of its own (never a shell string). False when there is no opener or it
// reports a failure (xdg-open exits 3 or 4 when no browser or file manager could be found):
// the caller then says so beside the URL or path instead of claiming it opened.
import { spawn } from 'node:child_process';

/** An opener still running after this has handed the target on (some wait for the program). */
const SETTLED_MS = 3_000;

export function openWithDesktop(
  target: string,
  platform: NodeJS.Platform = process.platform,
): Promise<boolean> {
  const [command, args] =
    platform === 'darwin'
      ? ['open', [target]]
      : platform === 'win32'
        ? ['explorer.exe', [target]]
        : ['xdg-open', [target]];
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args, { stdio: 'ignore', detached: true });
      let timer: NodeJS.Timeout | undefined;
      const settle = (opened: boolean) => {
        clearTimeout(timer);
        child.unref();
        resolve(opened);
      };
      child.once('error', () => settle(false));
      child.once('spawn', () => {
        timer = setTimeout(() => settle(true), SETTLED_MS);
        timer.unref();
      });
      // explorer.exe exits 1 even when it opened the folder: only a Unix opener's status counts.
      child.once('exit', (code) => settle(platform === 'win32' || code === 0));
    } catch {
      resolve(false);
    }
  });
}

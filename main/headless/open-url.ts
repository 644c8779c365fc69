// Opens a URL or a folder with the desktop's own opener (xdg-open, open, explorer). The target
// is an argument of its own (never a shell string); false when there is no opener.
import { spawn } from 'node:child_process';

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
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}

// Where Brand Sync keeps its own data (database, logs) and where the brand folders live by
// default, per OS. Both are settings (`--data-dir`, `--root`); these are only the defaults.
import os from 'node:os';
import path from 'node:path';

export interface PathEnv {
  platform: NodeJS.Platform;
  home: string;
  env: Record<string, string | undefined>;
}

const APP_DIR = 'brand-sync';
const APP_NAME = 'Brand Sync';

function currentEnv(): PathEnv {
  return { platform: process.platform, home: os.homedir(), env: process.env };
}

/** The default data directory: XDG config on Linux, Application Support on macOS, %APPDATA% on Windows. */
export function defaultDataDir(from: PathEnv = currentEnv()): string {
  const { platform, home, env } = from;
  if (platform === 'win32') {
    const appData = env.APPDATA || path.win32.join(home, 'AppData', 'Roaming');
    return path.win32.join(appData, APP_NAME);
  }
  if (platform === 'darwin') {
    return path.posix.join(home, 'Library', 'Application Support', APP_NAME);
  }
  // XDG: an empty or relative XDG_CONFIG_HOME must be ignored (XDG Base Directory spec).
  const xdg = env.XDG_CONFIG_HOME;
  const configHome = xdg && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, '.config');
  return path.posix.join(configHome, APP_DIR);
}

/** The default sync root: a visible folder in the user's home on every OS. */
export function defaultSyncRoot(from: PathEnv = currentEnv()): string {
  const join = from.platform === 'win32' ? path.win32.join : path.posix.join;
  return join(from.home, APP_NAME);
}

// Start at login. macOS and Windows have login items (`app.setLoginItemSettings`); Linux has
// none in Electron, so an XDG autostart entry is written to $XDG_CONFIG_HOME/autostart (or
// ~/.config/autostart), as desktop environments read it. Plain Node: tested against a temp dir.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const DESKTOP_FILE = 'brand-sync.desktop';

export function autostartDir(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME)
      ? env.XDG_CONFIG_HOME
      : path.join(env.HOME ?? os.homedir(), '.config');
  return path.join(base, 'autostart');
}

/** A .desktop Exec line: each argument quoted as the spec asks (", `, $ and \\ escaped). */
function execLine(command: readonly string[]): string {
  return command
    .map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `"${arg.replace(/(["`$\\])/g, '\\$1')}"`))
    .join(' ');
}

export function desktopEntry(command: readonly string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Brand Sync',
    'Comment=Keeps your brands in sync with folders on this computer',
    `Exec=${execLine(command)}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** Small files, written synchronously: the host's loginItem interface is synchronous. */
export function setLinuxAutostart(
  enabled: boolean,
  command: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): void {
  const file = path.join(autostartDir(env), DESKTOP_FILE);
  if (!enabled) {
    rmSync(file, { force: true });
    return;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, desktopEntry(command), { mode: 0o644 });
  renameSync(`${file}.tmp`, file);
}

export function linuxAutostartEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  let text: string;
  try {
    text = readFileSync(path.join(autostartDir(env), DESKTOP_FILE), 'utf8');
  } catch {
    return false;
  }
  return !/^Hidden=true$/m.test(text) && !/^X-GNOME-Autostart-enabled=false$/m.test(text);
}

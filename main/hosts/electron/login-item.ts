// Start at login for this platform, as the engine's host ability: login items on macOS and
// Windows, the XDG autostart entry on Linux.
import { linuxAutostartEnabled, setLinuxAutostart } from './autostart.ts';

export interface LoginItemSettingsLike {
  getLoginItemSettings(): { openAtLogin: boolean };
  setLoginItemSettings(settings: { openAtLogin: boolean; openAsHidden?: boolean }): void;
}

export function loginItemFor(
  platform: NodeJS.Platform,
  app: LoginItemSettingsLike,
  command: readonly string[],
): { get(): boolean; set(enabled: boolean): void } {
  if (platform === 'linux') {
    return {
      get: () => linuxAutostartEnabled(),
      set: (enabled) => setLinuxAutostart(enabled, command),
    };
  }
  return {
    get: () => app.getLoginItemSettings().openAtLogin,
    set: (enabled) => app.setLoginItemSettings({ openAtLogin: enabled, openAsHidden: true }),
  };
}

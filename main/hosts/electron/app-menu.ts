// The application menu, ours rather than Electron's default (whose View menu has Reload and
// Toggle Developer Tools): editing, zoom, the window and quit, and the developer items only
// when running from the sources. A plain template, built by Electron in main.ts.
import type { MenuItemConstructorOptions } from 'electron';

export interface AppMenuOptions {
  platform: NodeJS.Platform;
  /** `app.isPackaged`: a user's release. */
  packaged: boolean;
  appName: string;
}

/** Roles that open the page's insides or reload it: for development only. */
export const DEVELOPER_ROLES = ['toggleDevTools', 'reload', 'forceReload'] as const;

const separator = { type: 'separator' } as const;

export function appMenuTemplate(options: AppMenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const menu: MenuItemConstructorOptions[] = [];
  if (mac) {
    menu.push({
      label: options.appName,
      submenu: [
        { role: 'about' },
        separator,
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        separator,
        { role: 'quit' },
      ],
    });
  } else {
    menu.push({ label: 'File', submenu: [{ role: 'close' }, { role: 'quit' }] });
  }
  // macOS routes copy and paste shortcuts through the menu: without Edit they do nothing.
  menu.push({
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'delete' },
      separator,
      { role: 'selectAll' },
    ],
  });
  const developer: MenuItemConstructorOptions[] = options.packaged
    ? []
    : [separator, ...DEVELOPER_ROLES.map((role) => ({ role }))];
  menu.push({
    label: 'View',
    submenu: [
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
      ...developer,
    ],
  });
  menu.push({
    label: 'Window',
    submenu: mac
      ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }]
      : [{ role: 'minimize' }],
  });
  return menu;
}

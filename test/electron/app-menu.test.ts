// The application menu as a plain template: a packaged build has no developer tools, reload
// or inspector in it on any platform; running from the sources keeps them; editing and quit
// are there everywhere (macOS needs Edit for its copy and paste shortcuts).
import type { MenuItemConstructorOptions } from 'electron';
import { expect, test } from 'vitest';
import { appMenuTemplate, DEVELOPER_ROLES } from '../../main/hosts/electron/app-menu.ts';

function roles(items: readonly MenuItemConstructorOptions[]): string[] {
  return items.flatMap((item) => [
    ...(item.role === undefined ? [] : [item.role]),
    ...(Array.isArray(item.submenu) ? roles(item.submenu) : []),
  ]);
}

const platforms = ['darwin', 'win32', 'linux'] as const;

test.each(platforms)('packaged on %s: no developer tools, no reload', (platform) => {
  const all = roles(appMenuTemplate({ platform, packaged: true, appName: 'Brand Sync' }));
  for (const role of ['toggleDevTools', 'reload', 'forceReload']) expect(all).not.toContain(role);
  expect(all).toEqual(expect.arrayContaining(['copy', 'paste', 'selectAll', 'undo', 'quit']));
});

test.each(platforms)('from the sources on %s: the developer items are there', (platform) => {
  const all = roles(appMenuTemplate({ platform, packaged: false, appName: 'Brand Sync' }));
  expect(all).toEqual(expect.arrayContaining([...DEVELOPER_ROLES]));
});

test('macOS has the app menu under the app name; elsewhere File', () => {
  expect(
    appMenuTemplate({ platform: 'darwin', packaged: true, appName: 'Brand Sync' })[0],
  ).toMatchObject({
    label: 'Brand Sync',
  });
  expect(
    appMenuTemplate({ platform: 'linux', packaged: true, appName: 'Brand Sync' })[0],
  ).toMatchObject({
    label: 'File',
  });
});

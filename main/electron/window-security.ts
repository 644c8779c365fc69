// The desktop window, locked down by the Electron security checklist: isolated, sandboxed,
// no Node in the page, web security on; no navigation away from the app, no new windows, no
// permission granted; links out only to https addresses of an allow-list, in the browser.
import { APP_ORIGIN } from './app-protocol.ts';

export function secureWebPreferences(preload: string) {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  } as const;
}

/** Hosts whose https pages may open in the browser: the service (its action URLs) and docs. */
export function externalAllowed(url: string, hosts: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '')
    return false;
  return hosts.some((host) => parsed.hostname === host || parsed.hostname.endsWith(`.${host}`));
}

/** What this needs of a BrowserWindow's webContents and session (fakes in tests). */
export interface WebContentsLike {
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: { preventDefault(): void }, url: string) => void,
  ): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  session: {
    setPermissionRequestHandler(
      handler: (wc: unknown, permission: string, callback: (granted: boolean) => void) => void,
    ): void;
    setPermissionCheckHandler(handler: () => boolean): void;
  };
}

export function hardenWebContents(
  contents: WebContentsLike,
  options: { openExternal(url: string): void; externalHosts(): readonly string[] },
): void {
  const stayInApp = (event: { preventDefault(): void }, url: string) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
  };
  contents.on('will-navigate', stayInApp);
  contents.on('will-redirect', stayInApp);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (externalAllowed(url, options.externalHosts())) options.openExternal(url);
    return { action: 'deny' };
  });
  contents.session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  contents.session.setPermissionCheckHandler(() => false);
}

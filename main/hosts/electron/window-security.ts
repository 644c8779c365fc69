// The desktop window, locked down by the Electron security checklist: isolated, sandboxed,
// no Node in the page, web security on, no devtools in a packaged build; no navigation of any
// frame away from the app, no remote content (a request off the app refused in the session), no
// new windows, no webviews, no device and no permission granted
// but the app page's own clipboard write; links out only to https pages of the service's own
// host, in the browser.
import { isAppPageUrl, isAppUrl } from './app-protocol.ts';

export function secureWebPreferences(preload: string, options: { packaged: boolean }) {
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
    // A user's release has no inspector: nothing in it to open one, no shortcut that does.
    devTools: !options.packaged,
  } as const;
}

/**
 * The hosts whose https pages may open in the browser: the service's own (its action URLs:
 * add credits, pay), exactly. Not its parent domain: `api.brand.co.uk` is not `*.co.uk`.
 */
export function externalHostsFor(baseUrl: string | null): string[] {
  if (baseUrl === null) return [];
  try {
    return [new URL(baseUrl).host];
  } catch {
    return [];
  }
}

/** Whether `url` is an https page of one of `hosts` (host and port exactly), without a login. */
export function externalAllowed(url: string, hosts: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '')
    return false;
  return hosts.includes(parsed.host);
}

type Preventable = { preventDefault(): void };

/** The one permission the app's page uses: `navigator.clipboard.writeText` (a swatch's hex). */
export const GRANTED_PERMISSION = 'clipboard-sanitized-write';

/**
 * Whether a permission asked (or checked) by a frame is granted: the clipboard write, to the
 * app window's page in its main frame; nothing else, to no one (no clipboard read, camera,
 * notifications from the page, external protocols).
 */
export function permissionGranted(
  permission: string,
  frame: { isMainFrame: boolean; requestingUrl?: string | undefined },
): boolean {
  return (
    permission === GRANTED_PERMISSION &&
    frame.isMainFrame &&
    isAppPageUrl(frame.requestingUrl ?? '')
  );
}

type FrameDetails = { isMainFrame: boolean; requestingUrl?: string | undefined };

// What a page of the app may load besides the app's own origin: inline data and its own blobs,
// and the inspector's pages when running from the sources.
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'devtools:']);

/**
 * Whether a renderer may make this request. No remote content, whatever a CSP says: a page of
 * the app never loads from the network (the engine talks to the service from the main process,
 * not through the window's session), so an http(s), ws(s) or file request is refused.
 */
export function requestAllowed(url: string): boolean {
  if (isAppUrl(url)) return true;
  try {
    return LOCAL_SCHEMES.has(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** What this needs of a BrowserWindow's webContents and session (fakes in tests). */
export interface WebContentsLike {
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: Preventable, url: string) => void,
  ): unknown;
  on(
    event: 'will-frame-navigate',
    listener: (details: Preventable & { url: string }) => void,
  ): unknown;
  on(event: 'will-attach-webview', listener: (event: Preventable) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  session: {
    setPermissionRequestHandler(
      handler: (
        wc: unknown,
        permission: string,
        callback: (granted: boolean) => void,
        details: FrameDetails,
      ) => void,
    ): void;
    setPermissionCheckHandler(
      handler: (
        wc: unknown,
        permission: string,
        requestingOrigin: string,
        details: FrameDetails,
      ) => boolean,
    ): void;
    setDevicePermissionHandler(handler: () => boolean): void;
    webRequest: {
      onBeforeRequest(
        listener: (
          details: { url: string },
          callback: (answer: { cancel: boolean }) => void,
        ) => void,
      ): void;
    };
  };
}

export function hardenWebContents(
  contents: WebContentsLike,
  options: { openExternal(url: string): void; externalHosts(): readonly string[] },
): void {
  const stayInApp = (event: Preventable, url: string) => {
    if (!isAppUrl(url)) event.preventDefault();
  };
  contents.on('will-navigate', stayInApp);
  contents.on('will-redirect', stayInApp);
  // will-navigate is the main frame's only: an iframe navigating (itself, or its parent with
  // target=_top) away from the app comes here.
  contents.on('will-frame-navigate', (details) => stayInApp(details, details.url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (externalAllowed(url, options.externalHosts())) options.openExternal(url);
    return { action: 'deny' };
  });
  // Chromium checks a permission first and asks only if the check says no: both decide alike.
  contents.session.setPermissionRequestHandler((_wc, permission, callback, details) =>
    callback(permissionGranted(permission, details)),
  );
  contents.session.setPermissionCheckHandler((_wc, permission, _origin, details) =>
    permissionGranted(permission, details),
  );
  // USB, HID and serial devices: none, not even one the user picked in a chooser.
  contents.session.setDevicePermissionHandler(() => false);
  contents.session.webRequest.onBeforeRequest(({ url }, callback) =>
    callback({ cancel: !requestAllowed(url) }),
  );
}

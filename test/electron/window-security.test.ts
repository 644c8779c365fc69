// The window's webPreferences and the handlers attached to it, against a fake BrowserWindow's
// webContents and session: the Electron security checklist, each item checked.
import { expect, test } from 'vitest';
import {
  requestAllowed,
  externalAllowed,
  externalHostsFor,
  hardenWebContents,
  secureWebPreferences,
  type WebContentsLike,
} from '../../main/hosts/electron/window-security.ts';

test('webPreferences: isolated, sandboxed, no Node, web security on, nothing experimental', () => {
  const prefs = secureWebPreferences('/app/preload.cjs', { packaged: true });
  expect(prefs).toMatchObject({
    preload: '/app/preload.cjs',
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
  });
  // Nothing switched on that the checklist warns against.
  expect(prefs).not.toHaveProperty('enableBlinkFeatures');
  expect(prefs).not.toHaveProperty('enableRemoteModule');
});

test('devtools: none in a packaged build, there when running from the sources', () => {
  expect(secureWebPreferences('/p.cjs', { packaged: true }).devTools).toBe(false);
  expect(secureWebPreferences('/p.cjs', { packaged: false }).devTools).toBe(true);
});

function fakeContents() {
  const on = new Map<
    string,
    (event: { preventDefault(): void; url?: string }, url?: string) => void
  >();
  let openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  type Session = WebContentsLike['session'];
  let permission: Parameters<Session['setPermissionRequestHandler']>[0] | undefined;
  let check: Parameters<Session['setPermissionCheckHandler']>[0] | undefined;
  let device: (() => boolean) | undefined;
  let request: Parameters<Session['webRequest']['onBeforeRequest']>[0] | undefined;
  const contents: WebContentsLike = {
    on: ((
      event: string,
      listener: (event: { preventDefault(): void; url?: string }, url?: string) => void,
    ) => on.set(event, listener)) as WebContentsLike['on'],
    setWindowOpenHandler: (handler) => void (openHandler = handler),
    session: {
      setPermissionRequestHandler: (handler) => void (permission = handler),
      setPermissionCheckHandler: (handler) => void (check = handler),
      setDevicePermissionHandler: (handler) => void (device = handler),
      webRequest: { onBeforeRequest: (listener) => void (request = listener) },
    },
  };
  const fire = (event: string, url?: string) => {
    let prevented = false;
    on.get(event)?.({ preventDefault: () => void (prevented = true) }, url);
    return prevented;
  };
  // Electron's will-frame-navigate passes one details object: the URL and preventDefault.
  const fireFrame = (url: string) => {
    let prevented = false;
    on.get('will-frame-navigate')?.({ url, preventDefault: () => void (prevented = true) });
    return prevented;
  };
  return {
    contents,
    fire,
    fireFrame,
    device: () => device,
    // Whether the session cancels a request for `url`.
    cancels: (url: string) => {
      let cancel: boolean | undefined;
      request?.({ url }, (answer) => void (cancel = answer.cancel));
      return cancel;
    },
    open: (url: string) => openHandler?.({ url }),
    permission: () => permission,
    check: () => check,
  };
}

test('navigation stays in the app; webviews are refused', () => {
  const f = fakeContents();
  hardenWebContents(f.contents, { openExternal: () => {}, externalHosts: () => [] });
  expect(f.fire('will-navigate', 'https://evil.example/')).toBe(true);
  expect(f.fire('will-navigate', 'file:///etc/passwd')).toBe(true);
  expect(f.fire('will-navigate', 'app://brand-sync.evil/')).toBe(true);
  expect(f.fire('will-redirect', 'http://127.0.0.1:9/')).toBe(true);
  expect(f.fire('will-navigate', 'app://user@brand-sync/')).toBe(true);
  expect(f.fire('will-navigate', 'app://brand-sync/#/settings')).toBe(false);
  expect(f.fire('will-attach-webview')).toBe(true);
});

test.each([
  ['https://evil.example/', true],
  ['http://127.0.0.1:9/', true],
  ['file:///etc/passwd', true],
  ['app://brand-sync.evil/', true],
  ['data:text/html,<script>1</script>', true],
  ['javascript:alert(1)', true],
  ['app://brand-sync/files/skill/b1/logo.svg', false],
  ['app://brand-sync/#/brands', false],
])('a frame, main or sub, navigating to %s: refused %s', (url, refused) => {
  const f = fakeContents();
  hardenWebContents(f.contents, { openExternal: () => {}, externalHosts: () => [] });
  expect(f.fireFrame(url)).toBe(refused);
});

test('new windows are denied; only https pages of the service’s own host open, in the browser', () => {
  const f = fakeContents();
  const opened: string[] = [];
  hardenWebContents(f.contents, {
    openExternal: (url) => void opened.push(url),
    externalHosts: () => externalHostsFor('https://api.brand.co.uk/v1'),
  });
  for (const url of [
    'https://api.brand.co.uk/billing?x=1',
    'https://API.Brand.co.uk/add-credits',
    'https://brand.co.uk/billing',
    'https://evil.co.uk/',
    'https://www.api.brand.co.uk/',
    'https://api.brand.co.uk:8443/',
    'http://api.brand.co.uk/billing',
    'https://api.brand.co.uk.evil.com/',
    'https://user:pw@api.brand.co.uk/',
    'javascript:alert(1)',
    'file:///etc/passwd',
  ]) {
    expect(f.open(url)).toEqual({ action: 'deny' });
  }
  expect(opened).toEqual([
    'https://api.brand.co.uk/billing?x=1',
    'https://API.Brand.co.uk/add-credits',
  ]);
  expect(externalAllowed('not a url', ['brand.example'])).toBe(false);
});

test('the external hosts are the service’s host exactly (with its port), or none', () => {
  expect(externalHostsFor('https://api.brand.co.uk/v1')).toEqual(['api.brand.co.uk']);
  expect(externalHostsFor('https://brand.example:8443/')).toEqual(['brand.example:8443']);
  // A service at brand.co.uk once allowed its "parent", co.uk, and so every *.co.uk.
  expect(externalHostsFor('https://brand.co.uk')).toEqual(['brand.co.uk']);
  expect(externalAllowed('https://evil.co.uk/', externalHostsFor('https://brand.co.uk'))).toBe(
    false,
  );
  expect(externalHostsFor(null)).toEqual([]);
  expect(externalHostsFor('not a url')).toEqual([]);
  expect(externalAllowed('https://brand.example:8443/pay', ['brand.example:8443'])).toBe(true);
  expect(externalAllowed('https://brand.example/pay', ['brand.example:8443'])).toBe(false);
});

const appPage = { isMainFrame: true, requestingUrl: 'app://brand-sync/#/brands/b1' };

test('every permission is denied, asked or checked, but the app page’s clipboard write', () => {
  const f = fakeContents();
  hardenWebContents(f.contents, { openExternal: () => {}, externalHosts: () => [] });
  const ask = (p: string, frame: { isMainFrame: boolean; requestingUrl?: string }) => {
    let answer: boolean | undefined;
    f.permission()?.({}, p, (granted) => void (answer = granted), frame);
    const checked = f.check()?.({}, p, 'app://brand-sync', frame);
    // Chromium checks first and asks only when the check says no: both must agree.
    expect(checked).toBe(answer);
    return answer;
  };
  for (const p of [
    'media',
    'geolocation',
    'notifications',
    'clipboard-read',
    'openExternal',
    'hid',
    'fullscreen',
  ]) {
    expect(ask(p, appPage)).toBe(false);
  }
  // The swatch's copy button (navigator.clipboard.writeText) on the app's page, main frame.
  expect(ask('clipboard-sanitized-write', appPage)).toBe(true);
  for (const frame of [
    { isMainFrame: false, requestingUrl: 'app://brand-sync/' },
    { isMainFrame: true, requestingUrl: 'app://brand-sync/files/skill/b1/evil.svg' },
    { isMainFrame: true, requestingUrl: 'https://evil.example/' },
    { isMainFrame: true, requestingUrl: 'app://brand-sync.evil/' },
    { isMainFrame: true },
  ]) {
    expect(ask('clipboard-sanitized-write', frame)).toBe(false);
  }
  // USB, HID and serial: no device, even one picked in a chooser.
  expect(f.device()?.()).toBe(false);
});

test.each([
  ['https://tracker.example/pixel.gif', true],
  ['http://127.0.0.1:8080/api/status', true],
  ['wss://evil.example/socket', true],
  ['file:///etc/passwd', true],
  ['ftp://files.example/x', true],
  ['app://brand-sync.evil/x.js', true],
  ['not a url', true],
  ['app://brand-sync/assets/app.js', false],
  ['app://brand-sync/files/media/m1', false],
  ['data:image/png;base64,iVBORw0KGgo=', false],
  ['blob:app://brand-sync/6f1d2c3e', false],
  ['devtools://devtools/bundled/inspector.html', false],
])('no remote content: the session cancels %s: %s', (url, cancelled) => {
  const f = fakeContents();
  hardenWebContents(f.contents, { openExternal: () => {}, externalHosts: () => [] });
  expect(f.cancels(url)).toBe(cancelled);
  expect(requestAllowed(url)).toBe(!cancelled);
});

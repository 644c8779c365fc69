// The window's webPreferences and the handlers attached to it, against a fake BrowserWindow's
// webContents and session: the Electron security checklist, each item checked.
import { expect, test } from 'vitest';
import {
  externalAllowed,
  hardenWebContents,
  secureWebPreferences,
  type WebContentsLike,
} from '../../main/electron/window-security.ts';

test('webPreferences: isolated, sandboxed, no Node, web security on, nothing experimental', () => {
  const prefs = secureWebPreferences('/app/preload.cjs');
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
});

function fakeContents() {
  const on = new Map<string, (event: { preventDefault(): void }, url?: string) => void>();
  let openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  let permission: ((wc: unknown, p: string, cb: (granted: boolean) => void) => void) | undefined;
  let check: (() => boolean) | undefined;
  const contents: WebContentsLike = {
    on: ((event: string, listener: (event: { preventDefault(): void }, url?: string) => void) =>
      on.set(event, listener)) as WebContentsLike['on'],
    setWindowOpenHandler: (handler) => void (openHandler = handler),
    session: {
      setPermissionRequestHandler: (handler) => void (permission = handler),
      setPermissionCheckHandler: (handler) => void (check = handler),
    },
  };
  const fire = (event: string, url?: string) => {
    let prevented = false;
    on.get(event)?.({ preventDefault: () => void (prevented = true) }, url);
    return prevented;
  };
  return {
    contents,
    fire,
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
  expect(f.fire('will-navigate', 'app://brand-sync/#/settings')).toBe(false);
  expect(f.fire('will-attach-webview')).toBe(true);
});

test('new windows are denied; only https pages of the service open, in the browser', () => {
  const f = fakeContents();
  const opened: string[] = [];
  hardenWebContents(f.contents, {
    openExternal: (url) => void opened.push(url),
    externalHosts: () => ['api.brand.example', 'brand.example'],
  });
  for (const url of [
    'https://brand.example/billing?x=1',
    'https://www.brand.example/add-credits',
    'http://brand.example/billing',
    'https://evil.example/',
    'https://brand.example.evil.com/',
    'https://user:pw@brand.example/',
    'javascript:alert(1)',
    'file:///etc/passwd',
  ]) {
    expect(f.open(url)).toEqual({ action: 'deny' });
  }
  expect(opened).toEqual([
    'https://brand.example/billing?x=1',
    'https://www.brand.example/add-credits',
  ]);
  expect(externalAllowed('not a url', ['brand.example'])).toBe(false);
});

test('every permission request is denied', () => {
  const f = fakeContents();
  hardenWebContents(f.contents, { openExternal: () => {}, externalHosts: () => [] });
  const answers: boolean[] = [];
  for (const p of ['media', 'geolocation', 'notifications', 'clipboard-read']) {
    f.permission()?.({}, p, (granted) => void answers.push(granted));
  }
  expect(answers).toEqual([false, false, false, false]);
  expect(f.check()?.()).toBe(false);
});

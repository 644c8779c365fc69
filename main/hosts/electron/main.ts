// The desktop app's composition root: one instance, the engine's app runtime in this process
// (its I/O is asynchronous and hashing runs in worker threads, so the window never waits on
// it), the window on the `app://` scheme, the bridge over IPC, the tray, OS notifications and
// start at login. Everything it wires is a tested module; this file only connects them.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  app,
  BrowserWindow,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  protocol,
  screen,
  shell,
  Tray,
} from 'electron';
import { IPC_EVENT_CHANNEL, type StatusDoc } from '../../../contract/index.ts';
import { AppRuntime } from '../../engine/app/app-runtime.ts';
import { createHandlers } from '../../engine/app/bridge-handlers.ts';
import { dispatch } from '../../engine/app/bridge-dispatch.ts';
import { fileFor } from '../../engine/app/file-access.ts';
import { defaultDataDir } from '../../engine/core/paths.ts';
import { libraryItemName } from '../../engine/views/library-item-name.ts';
import { appMenuTemplate } from './app-menu.ts';
import { APP_ORIGIN, APP_SCHEME, createAppProtocolHandler } from './app-protocol.ts';
import { beforeReady } from './before-ready.ts';
import { registerBridge } from './ipc-bridge.ts';
import { registerNativeDrag } from './native-drag.ts';
import { loginItemFor } from './login-item.ts';
import { createNotifier } from './os-notifications.ts';
import {
  TRAY_KINDS,
  TRAY_SHOWN,
  trayIconPath,
  trayMenu,
  trayState,
  type TrayAction,
} from './tray-state.ts';
import { boundsOnScreen, DEFAULT_SIZE, loadWindowState, saveWindowState } from './window-state.ts';
import { externalHostsFor, hardenWebContents, secureWebPreferences } from './window-security.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '..', '..');
const rendererDir = path.join(dist, 'renderer');
const preload = path.join(dist, 'preload', 'preload.cjs');

beforeReady(app, protocol);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void start();
}

async function start(): Promise<void> {
  await app.whenReady();
  // Ours, not Electron's default with Reload and Toggle Developer Tools.
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      appMenuTemplate({ platform: process.platform, packaged: app.isPackaged, appName: app.name }),
    ),
  );
  const dataDir = defaultDataDir();
  const runtime = await AppRuntime.start({
    dataDir,
    host: {
      kind: 'desktop',
      openPath: async (target) => (await shell.openPath(target)) === '',
      loginItem: loginItemFor(process.platform, app, [process.execPath]),
    },
  });
  const handlers = createHandlers(runtime);
  // Every web contents gets the window's guards (a devtools or any later one too).
  app.on('web-contents-created', (_event, contents) =>
    hardenWebContents(contents, {
      openExternal: (url) => void shell.openExternal(url),
      externalHosts: () => externalHostsFor(runtime.baseUrl),
    }),
  );
  // A terminal's Ctrl-C or a service manager's SIGTERM quits through the engine's shutdown.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
  protocol.handle(
    APP_SCHEME,
    createAppProtocolHandler({ rendererDir, fileFor: (rest) => fileFor(runtime, rest) }),
  );

  let window: BrowserWindow | null = null;
  // Only the window's main frame may call: the bridge asks for it at each call.
  registerBridge(
    ipcMain,
    (name, input) => dispatch(handlers, name, input, () => runtime.secret),
    () => (window === null || window.isDestroyed() ? null : window.webContents.mainFrame),
  );
  // A file dragged out of the window goes as a native drag of the file itself, by its name.
  const dragIcon = nativeImage.createFromPath(path.join(rendererDir, trayIconPath('in-sync')));
  const stopDrag = await registerNativeDrag(ipcMain, {
    dataDir,
    appMainFrame: () =>
      window === null || window.isDestroyed() ? null : window.webContents.mainFrame,
    fileFor: (rest) => fileFor(runtime, rest),
    mediaItem: (itemId) => {
      const item = runtime.store.library.get(itemId);
      return item === undefined ? null : { name: libraryItemName(item), type: item.type };
    },
    online: () => runtime.engine !== null,
    icon: () => dragIcon,
  });
  let quitting = false;
  const saved = await loadWindowState(dataDir);
  const openWindow = (hash = '') => {
    if (window !== null) {
      if (hash) void window.loadURL(`${APP_ORIGIN}/${hash}`);
      window.show();
      window.focus();
      return;
    }
    const bounds = boundsOnScreen(
      saved.bounds,
      screen.getAllDisplays().map((d) => d.workArea),
    );
    window = new BrowserWindow({
      ...(bounds ?? DEFAULT_SIZE),
      minWidth: 880,
      minHeight: 560,
      show: false,
      title: 'Brand Sync',
      webPreferences: secureWebPreferences(preload, { packaged: app.isPackaged }),
    });
    hardenWebContents(window.webContents, {
      openExternal: (url) => void shell.openExternal(url),
      // The service's own https pages (its action URLs: add credits, pay) open in the browser.
      externalHosts: () => externalHostsFor(runtime.baseUrl),
    });
    if (saved.maximized) window.maximize();
    window.once('ready-to-show', () => window?.show());
    const remember = () => {
      if (window === null) return;
      void saveWindowState(dataDir, {
        bounds: window.getNormalBounds(),
        maximized: window.isMaximized(),
      });
    };
    window.on('resize', remember);
    window.on('move', remember);
    // Closing hides to the tray where that is the platform's habit; Quit quits.
    window.on('close', (event) => {
      if (!quitting && process.platform !== 'linux') {
        event.preventDefault();
        window?.hide();
      }
    });
    window.on('closed', () => (window = null));
    void window.loadURL(`${APP_ORIGIN}/${hash}`);
  };

  const notify = createNotifier({
    show: ({ title, body, target }) => {
      if (!Notification.isSupported()) return;
      const n = new Notification({ title, body });
      n.on('click', () => openWindow(target));
      n.show();
    },
  });

  // One image per state, loaded once: the state at a glance, the words in the tooltip.
  const trayImages = new Map(
    TRAY_KINDS.map((kind) => [
      kind,
      nativeImage.createFromPath(path.join(rendererDir, trayIconPath(kind))),
    ]),
  );
  const tray = new Tray(trayImages.get('in-sync') as Electron.NativeImage);
  const act = async (action: TrayAction) => {
    const call = (name: 'pause' | 'resume' | 'syncNow') => dispatch(handlers, name, {});
    if (action === 'open') openWindow();
    else if (action === 'pause') await call('pause');
    else if (action === 'resume') await call('resume');
    else if (action === 'sync-now') await call('syncNow');
    else if (action === 'open-root') await shell.openPath(runtime.root);
    else if (action === 'quit') app.quit();
  };
  const refreshTray = async () => {
    const status = await dispatch(handlers, 'status', {});
    const doc = status.ok ? (status.data as StatusDoc) : null;
    const state = trayState(doc, runtime.engine !== null);
    tray.setImage(trayImages.get(state.kind) as Electron.NativeImage);
    tray.setToolTip(state.label);
    // Electron cannot list trays: the end-to-end test reads the state shown from here.
    (globalThis as Record<symbol, unknown>)[TRAY_SHOWN] = state;
    tray.setContextMenu(
      Menu.buildFromTemplate(
        trayMenu(state, doc?.queue.userPaused ?? false).map((item) =>
          item.separator
            ? { type: 'separator' as const }
            : {
                label: item.label,
                enabled: item.enabled,
                click: () => item.action && void act(item.action),
              },
        ),
      ),
    );
  };
  let trayTimer: NodeJS.Timeout | null = null;
  runtime.journal.subscribe((event) => {
    window?.webContents.send(IPC_EVENT_CHANNEL, event);
    notify(event);
    // Many events in a burst (a folder of files): the tray is redrawn once.
    trayTimer ??= setTimeout(() => {
      trayTimer = null;
      void refreshTray();
    }, 500);
  });
  tray.on('click', () => openWindow());
  await refreshTray();

  app.on('second-instance', () => openWindow());
  app.on('activate', () => openWindow());
  app.on('window-all-closed', () => {
    // The engine keeps syncing with no window: the tray stays.
  });
  app.on('before-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault();
    // A clean shutdown: running jobs go back to the queue, the store closes.
    void Promise.allSettled([stopDrag(), runtime.close()]).finally(() => app.exit(0));
  });
  openWindow();
}

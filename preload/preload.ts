// The desktop window's preload (sandboxed, context-isolated): the named functions of the
// bridge, exposed as `window.brandSync`. Bundled to one CommonJS file for the sandbox.
import { contextBridge, ipcRenderer } from 'electron';
import { PRELOAD_GLOBAL } from '../contract/channel-names.ts';
import { buildPreloadApi } from './preload-api.ts';

contextBridge.exposeInMainWorld(PRELOAD_GLOBAL, buildPreloadApi(ipcRenderer));

// Node's http and https modules, taken without an ES module import on purpose:
// `import http from 'node:http'` makes Node build a module namespace of every export, which
// runs http's lazy getters (WebSocket and its kin) and so loads undici, http2 and assert: about
// 14 MB resident for good, in a process (`brand-sync run`) whose idle footprint is a target.
// getBuiltinModule hands over the plain exports, getters untouched.
import type HttpModule from 'node:http';
import type HttpsModule from 'node:https';

export const http: typeof HttpModule = process.getBuiltinModule('node:http');
export const https: typeof HttpsModule = process.getBuiltinModule('node:https');

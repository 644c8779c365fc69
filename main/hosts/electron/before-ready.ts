// What must happen before Electron is ready: the app:// scheme's privileges, and the sandbox
// for every renderer the app will ever make (a window's own `sandbox: true` covers that window
// only; this covers any other, whatever its preferences say).
import { APP_SCHEME, APP_SCHEME_PRIVILEGES } from './app-protocol.ts';

/** What this needs of Electron's `app` and `protocol` (fakes in tests). */
export interface BeforeReadyApp {
  enableSandbox(): void;
}
export interface SchemeRegistry {
  registerSchemesAsPrivileged(
    schemes: { scheme: string; privileges: typeof APP_SCHEME_PRIVILEGES }[],
  ): void;
}

export function beforeReady(app: BeforeReadyApp, protocol: SchemeRegistry): void {
  app.enableSandbox();
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);
}

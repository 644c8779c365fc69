// Before Electron is ready: every renderer sandboxed app-wide, and app:// registered with its
// privileges (standard and secure, never bypassing the CSP), against fakes of app and protocol.
import { expect, test } from 'vitest';
import { beforeReady } from '../../main/hosts/electron/before-ready.ts';

test('the sandbox is on for every renderer and app:// is registered without bypassCSP', () => {
  const calls: unknown[] = [];
  beforeReady(
    { enableSandbox: () => void calls.push('enableSandbox') },
    { registerSchemesAsPrivileged: (schemes) => void calls.push(schemes) },
  );
  expect(calls).toEqual([
    'enableSandbox',
    [
      {
        scheme: 'app',
        privileges: {
          standard: true,
          secure: true,
          supportFetchAPI: true,
          stream: true,
        },
      },
    ],
  ]);
});

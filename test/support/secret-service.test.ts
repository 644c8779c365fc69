// The tests' private Secret Service. Its bus must start nothing on demand: the stock session
// bus started a second keyring daemon of its own (the user's HOME, no default collection)
// when a call came before ours owned org.freedesktop.secrets, and the keychain tests failed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import {
  busCall,
  secretServiceMissing,
  startSecretService,
  startTestBus,
} from './secret-service.ts';

test.skipIf(secretServiceMissing !== null)(
  'the test bus starts no Secret Service on demand: an early call is refused, nothing is started',
  async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'test-bus-'));
    const bus = await startTestBus(dir);
    try {
      const activatable = busCall(
        bus.address,
        '--dest=org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.ListActivatableNames',
      );
      expect(activatable.status).toBe(0);
      expect(activatable.stdout).not.toContain('org.freedesktop.secrets');

      const early = busCall(
        bus.address,
        '--dest=org.freedesktop.secrets',
        '/org/freedesktop/secrets',
        'org.freedesktop.Secret.Service.ReadAlias',
        'string:default',
      );
      expect(early.status).not.toBe(0);
      expect(early.stderr).toContain('org.freedesktop.DBus.Error.ServiceUnknown');
      const owner = busCall(
        bus.address,
        '--dest=org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.NameHasOwner',
        'string:org.freedesktop.secrets',
      );
      expect(owner.stdout).toContain('boolean false');
    } finally {
      bus.process.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test.skipIf(secretServiceMissing !== null)(
  'the Secret Service on it is the daemon started for the test, with a default collection',
  async () => {
    const service = await startSecretService();
    try {
      const address = service.env.DBUS_SESSION_BUS_ADDRESS;
      const pid = busCall(
        address,
        '--dest=org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.GetConnectionUnixProcessID',
        'string:org.freedesktop.secrets',
      );
      const ownerPid = /uint32 (\d+)/.exec(pid.stdout)?.[1];
      expect(ownerPid).toBeDefined();
      const commandLine = spawnSync('ps', ['-o', 'args=', '-p', ownerPid!], { encoding: 'utf8' });
      expect(commandLine.stdout).toContain('--control-directory=');
      const alias = busCall(
        address,
        '--dest=org.freedesktop.secrets',
        '/org/freedesktop/secrets',
        'org.freedesktop.Secret.Service.ReadAlias',
        'string:default',
      );
      expect(alias.stdout).toMatch(/object path "\/org\/freedesktop\/secrets\/collection\/\w+"/);
    } finally {
      service.stop();
    }
  },
);

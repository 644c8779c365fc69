// A private Secret Service for tests: a D-Bus session bus and an unlocked gnome-keyring on
// it, reachable by child processes through DBUS_SESSION_BUS_ADDRESS. CI installs dbus and
// gnome-keyring (.ci/run); elsewhere the keychain tests skip and say why.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function has(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

export const secretServiceMissing: string | null =
  (has('dbus-daemon') && has('gnome-keyring-daemon')) || process.env.CI
    ? null
    : 'dbus-daemon and gnome-keyring-daemon are not installed (Debian: dbus gnome-keyring)';

export interface SecretService {
  env: { DBUS_SESSION_BUS_ADDRESS: string };
  stop(): void;
}

// The bus of this config starts nothing on demand. The stock session config does: a call
// to org.freedesktop.secrets before our daemon owns that name (a keychain call, or the
// wait below, on a loaded machine) made the bus start a second gnome-keyring-daemon of
// its own, with the user's HOME and no default collection, which then owned the name for
// good: "Secret Service: no result found". Without activation such a call fails at once
// and the wait below asks again.
const busConfig = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=${os.tmpdir()}</listen>
  <auth>EXTERNAL</auth>
  <!-- A desktop session bus's limits (the stock session.conf), not the built-in 256 per user -->
  <limit name="max_connections_per_user">100000</limit>
  <limit name="max_completed_connections">100000</limit>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;

export interface TestBus {
  address: string;
  process: ChildProcess;
}

/** A private session bus, configured in `dir`, that starts no service on demand. */
export async function startTestBus(dir: string): Promise<TestBus> {
  const configFile = path.join(dir, 'bus.conf');
  writeFileSync(configFile, busConfig);
  const bus: ChildProcess = spawn(
    'dbus-daemon',
    [`--config-file=${configFile}`, '--nofork', '--print-address=1'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const address = await new Promise<string>((resolve, reject) => {
    let out = '';
    bus.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(line.trim());
    });
    bus.on('error', reject);
    bus.on('exit', (code) => reject(new Error(`dbus-daemon exited (${code})`)));
  });
  return { address, process: bus };
}

export async function startSecretService(): Promise<SecretService> {
  const controlDir = mkdtempSync(path.join(os.tmpdir(), 'keyring-'));
  const { address, process: bus } = await startTestBus(controlDir);
  const env = { DBUS_SESSION_BUS_ADDRESS: address };
  const keyring = spawnSync(
    'gnome-keyring-daemon',
    ['--unlock', '--daemonize', '--components=secrets', `--control-directory=${controlDir}`],
    {
      input: 'test-password',
      // Its own home: the keyrings of the person running the tests are never touched.
      env: {
        ...process.env,
        ...env,
        HOME: controlDir,
        XDG_DATA_HOME: path.join(controlDir, 'data'),
      },
      encoding: 'utf8',
    },
  );
  const stop = () => {
    spawnSync('pkill', ['-f', `control-directory=${controlDir}`]);
    bus.kill();
    rmSync(controlDir, { recursive: true, force: true });
  };
  if (keyring.status !== 0) {
    stop();
    throw new Error(`gnome-keyring-daemon failed: ${keyring.stderr}`);
  }
  // The daemon is started but may not yet own its name nor have its default collection, and
  // a keychain call fails until it has ("Secret Service: no result found"): wait for both.
  const deadline = Date.now() + 15_000;
  while (defaultCollection(env) === null) {
    if (Date.now() > deadline) {
      stop();
      throw new Error('the test Secret Service has no default collection after 15 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { env, stop };
}

/** One D-Bus method call on the bus at `address` (dbus-send, which comes with dbus). */
export function busCall(address: string, ...args: string[]) {
  return spawnSync('dbus-send', ['--session', '--print-reply', ...args], {
    env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: address },
    encoding: 'utf8',
  });
}

/** The object path of the Secret Service's default collection, or null while it has none. */
function defaultCollection(env: SecretService['env']): string | null {
  const reply = busCall(
    env.DBUS_SESSION_BUS_ADDRESS,
    '--dest=org.freedesktop.secrets',
    '/org/freedesktop/secrets',
    'org.freedesktop.Secret.Service.ReadAlias',
    'string:default',
  );
  const found = /object path "([^"]+)"/.exec(reply.stdout ?? '')?.[1];
  return reply.status === 0 && found !== undefined && found !== '/' ? found : null;
}

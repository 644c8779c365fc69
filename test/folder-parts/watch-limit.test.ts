// The inotify limit for real: the watcher runs in a user namespace whose limit on inotify
// watches is set low (/proc/sys/user/max_inotify_watches is per namespace), so the kernel
// itself refuses watches with ENOSPC. The engine must say so, name the setting to raise, and
// poll the folders it could not watch. (watcher.test.ts covers the same with an injected error.)
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { makePng, makeTempDir } from './fixtures.ts';

const CHILD = fileURLToPath(new URL('./helpers/watch-child.ts', import.meta.url));
// sh -c SCRIPT LIMIT COMMAND…: the limit is set inside the new namespace, then the watcher runs.
const IN_NAMESPACE = 'echo "$0" > /proc/sys/user/max_inotify_watches && exec "$@"';

/** Why no user namespace with its own inotify limit can be made here, or null. */
const namespaceMissing: string | null = (() => {
  if (process.platform !== 'linux') return '(inotify is Linux only)';
  const probe = spawnSync('unshare', ['--user', '--map-root-user', 'sh', '-c', IN_NAMESPACE, '5'], {
    encoding: 'utf8',
  });
  if (probe.error) return '(no unshare here)';
  return probe.status === 0
    ? null
    : `(this kernel does not allow a user namespace with its own inotify limit: ${probe.stderr.trim()})`;
})();

interface Event {
  type: string;
  code?: string;
  brandDir?: string;
  setting?: string;
  message?: string;
  source?: string;
  file?: { relPath: string };
}

test.skipIf(namespaceMissing !== null)(
  `when the kernel refuses more watches: says so, names the setting, and polls the folder ${namespaceMissing ?? ''}`,
  async () => {
    const { dir: root, cleanup } = await makeTempDir();
    for (const brand of ['Acme', 'Beta', 'Gamma']) {
      await mkdir(path.join(root, brand, 'Logo'), { recursive: true });
    }
    // Two watches: the root and one folder; every other folder is refused.
    const child = spawn(
      'unshare',
      [
        '--user',
        '--map-root-user',
        'sh',
        '-c',
        IN_NAMESPACE,
        '2',
        process.execPath,
        CHILD,
        root,
        '300',
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const events: Event[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => events.push(JSON.parse(line)));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const waitFor = async (what: string, condition: () => boolean) => {
      for (let i = 0; !condition(); i++) {
        if (child.exitCode !== null || i > 1000) throw new Error(`gave up waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      await waitFor('the watcher', () => events.some((e) => e.type === 'started'));
      await waitFor('the refusal', () => events.some((e) => e.type === 'watch-limit'));
      const limit = events.find((e) => e.type === 'watch-limit') as Event;
      expect(limit).toMatchObject({ code: 'ENOSPC', setting: 'fs.inotify.max_user_watches' });
      expect(limit.message).toContain('fs.inotify.max_user_watches');
      expect(['Acme', 'Beta', 'Gamma']).toContain(limit.brandDir);

      // A file dropped into a refused folder is still found: by polling.
      await new Promise((r) => setTimeout(r, 400)); // past the first poll (the baseline)
      await writeFile(path.join(root, limit.brandDir as string, 'polled.png'), makePng());
      await waitFor('the polled file', () =>
        events.some(
          (e) => e.type === 'add' && e.file?.relPath === 'polled.png' && e.source === 'poll',
        ),
      );
    } finally {
      child.stdin.end();
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      await cleanup();
    }
  },
  30_000,
);

// A real case-insensitive disk for tests: test/support/case-insensitive-fs.py mounted with
// FUSE over a temp folder (the kernel here cannot mount a casefolded ext4), which can also
// play a Windows sharing violation on a file. CI installs what
// it needs (.ci/run: fuse3, python3-fusepy); elsewhere the tests that need it skip and say why.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./case-insensitive-fs.py', import.meta.url));

/** Why no such disk can be mounted here, or null when it can. CI must always mount one. */
export const caseInsensitiveDiskMissing: string | null = (() => {
  if (process.env.CI) return null;
  if (process.platform !== 'linux') return '(a FUSE disk is mounted on Linux only)';
  if (!existsSync('/dev/fuse')) return '(no /dev/fuse here)';
  if (process.getuid?.() !== 0) return '(mounting needs root here)';
  const probe = spawnSync(PYTHON, ['-c', 'import fusepy'], { encoding: 'utf8' });
  if (probe.status !== 0) return "(install Debian's fuse3 and python3-fusepy)";
  return null;
})();

export interface CaseInsensitiveDisk {
  /** The mount point: a folder on the case-insensitive disk. */
  dir: string;
  /**
   * Another program opens the file at `absPath` (under `dir`) without sharing, as on Windows:
   * opening it fails with EBUSY until the returned release is called.
   */
  holdOpen(absPath: string): Promise<() => Promise<void>>;
  unmount(): Promise<void>;
}

export async function mountCaseInsensitiveDisk(): Promise<CaseInsensitiveDisk> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'case-insensitive-'));
  const backing = path.join(base, 'backing');
  const dir = path.join(base, 'disk');
  await mkdir(backing);
  await mkdir(dir);
  let stderr = '';
  const child: ChildProcess = spawn(PYTHON, [SCRIPT, backing, dir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const mounted = () => readFileSync('/proc/mounts', 'utf8').includes(` ${dir} fuse`);
  for (let i = 0; !mounted(); i++) {
    if (child.exitCode !== null || i > 250) {
      child.kill();
      await rm(base, { recursive: true, force: true });
      throw new Error(`the case-insensitive disk did not mount: ${stderr.trim() || 'timeout'}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    dir,
    async holdOpen(absPath) {
      // The marker lies in the backing folder, beside the file: the disk hides it.
      const marker = path.join(backing, path.relative(dir, absPath)) + '.sharing-lock';
      await writeFile(marker, '');
      return () => rm(marker, { force: true });
    },
    async unmount() {
      const exited = new Promise((r) =>
        child.exitCode !== null ? r(null) : child.once('exit', r),
      );
      const done = spawnSync('fusermount3', ['-u', '-z', dir]);
      if (done.status !== 0) spawnSync('umount', ['-l', dir]);
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(base, { recursive: true, force: true });
    },
  };
}

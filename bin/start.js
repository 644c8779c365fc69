#!/usr/bin/env node
// `npm start`: the desktop app where Electron's runtime can start; where it cannot, one line
// says why and the same window runs in the browser over the demo (`brand-sync demo --open`).
// Plain JavaScript: it runs before anything is compiled.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProblem } from './verified-build.js';

const project = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Why the desktop app cannot start here, or null when it can. Never downloads anything. */
export function desktopUnavailable(env = process.env) {
  if (env.BRAND_SYNC_NO_DESKTOP) return 'BRAND_SYNC_NO_DESKTOP is set';
  const pkg = path.join(project, 'node_modules', 'electron');
  const pathFile = path.join(pkg, 'path.txt');
  if (!existsSync(pathFile))
    return "Electron's runtime is not installed (its download is not possible here)";
  const binary = path.join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(binary)) return `Electron's runtime is missing (${binary})`;
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY)
    return 'there is no display';
  return null;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const why = desktopUnavailable();
  const args =
    why === null
      ? null
      : [path.join(project, 'bin', 'brand-sync.js'), 'demo', '--open', ...process.argv.slice(2)];
  if (args === null) {
    // The shell runs compiled (dist/main/hosts/electron/main.js, the preload bundle): build
    // first, unless dist/ already is a build of these sources (`npm ci` makes one).
    const dist = path.join(project, 'dist');
    if (buildProblem(dist, project) === null) {
      process.stderr.write('Starting the desktop app…\n');
    } else {
      process.stderr.write('Building and starting the desktop app…\n');
      const built = spawnSync(
        process.execPath,
        [path.join(project, 'bin', 'verified-build.js'), 'build', dist],
        { stdio: 'inherit' },
      );
      if (built.status !== 0) process.exit(built.status ?? 1);
    }
    const electronBin = path.join(project, 'node_modules', '.bin', 'electron');
    const child = spawn(electronBin, [project], { stdio: 'inherit' });
    child.on('exit', (code) => process.exit(code ?? 0));
  } else {
    process.stderr.write(
      `The desktop app cannot start here (${why}): running the demo in the browser instead.\n`,
    );
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
    child.on('exit', (code) => process.exit(code ?? 0));
  }
}

#!/usr/bin/env node
// npm's `prepare` (`npm ci` and `npm install` in a clone): builds and stamps dist/, so that
// the bin a person then runs is the one-module bundle, as a packaged app is, instead of some
// 360 TypeScript modules (a start about twice as fast, and a `run` that holds less). The bin
// still runs the sources as soon as one of them is edited (verified-build.js), never a stale
// build.
//
// A build that cannot be made is not a failed install: without the dev tools
// (`--omit=dev`) or with sources that do not compile, one line says so and the bin runs the
// sources. Plain JavaScript, like the bin.
//   node bin/install-build.js [PROJECT]   PROJECT defaults to this one (tests name another)
import path from 'node:path';
import { build, PROJECT } from './verified-build.js';

const project = path.resolve(process.argv[2] ?? PROJECT);
const dist = path.join(project, 'dist');
try {
  await build(dist, project);
  process.stdout.write(
    `brand-sync: built ${dist} (the bin runs it while it matches the sources)\n`,
  );
} catch (error) {
  const why = error instanceof Error ? error.message : String(error);
  process.stderr.write(`brand-sync: no build made (${why}); the bin runs the sources\n`);
}

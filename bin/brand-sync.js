#!/usr/bin/env node
// Plain JavaScript that any Node can parse, so an old Node gets one clear line instead of a
// syntax error. The CLI is TypeScript, run by Node's built-in type stripping, or the compiled
// build of exactly these sources when there is one (verified-build.js: never a stale build).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `brand-sync needs Node.js 22.12 or newer (this is ${process.version}); run it through npm or npx in the project, which use the pinned Node 24.\n`,
  );
  process.exit(1);
}
const { entryToRun } = await import('./verified-build.js');
const entry = entryToRun();
if (entry.error) {
  process.stderr.write(`brand-sync: ${entry.error}\n`);
  process.exit(1);
}
await import(entry.url);

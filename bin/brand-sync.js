#!/usr/bin/env node
// Plain JavaScript that any Node can parse, so an old Node gets one clear line instead of a
// syntax error. The CLI itself is TypeScript run by Node's built-in type stripping.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `brand-sync needs Node.js 22.12 or newer (this is ${process.version}); run it through npm or npx in the project, which use the pinned Node 24.\n`,
  );
  process.exit(1);
}
await import('../main/cli/main.ts');

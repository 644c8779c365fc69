// `npm run bench [name…]`: runs every bench/*.bench.ts (or the named ones) one after the
// other, each in its own process so that its peak RSS is its own.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.slice(0, -'.bench.ts'.length))
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();

if (benches.length === 0) {
  console.error(`no benchmark matches ${wanted.join(', ') || '(none exist)'}`);
  process.exit(2);
}
let failed = 0;
for (const name of benches) {
  const run = spawnSync(process.execPath, ['--expose-gc', join(here, `${name}.bench.ts`)], {
    stdio: 'inherit',
  });
  if (run.status !== 0) {
    failed++;
    console.error(`bench ${name} failed (exit ${run.status ?? run.signal})`);
  }
}
console.log(`\nresults written to bench/results/*.json`);
process.exit(failed === 0 ? 0 : 1);

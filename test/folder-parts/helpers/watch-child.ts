// The folder watcher in a process of its own, for tests that must change what the kernel
// allows it (a user namespace with a low inotify limit): each event is a JSON line on stdout;
// it stops when stdin closes.
//   node watch-child.ts ROOT FALLBACK_INTERVAL_MS
import { IgnoreRulesRegistry } from '../../../main/engine/folder-parts/ignore-rules.ts';
import { PathNormaliser } from '../../../main/engine/folder-parts/path-normalise.ts';
import { FolderWatcher } from '../../../main/engine/folder-parts/watcher.ts';

const [root, interval] = process.argv.slice(2) as [string, string];
const normaliser = await PathNormaliser.forRoot(root);
const rules = new IgnoreRulesRegistry(root, { caseInsensitive: normaliser.caseInsensitive });
const watcher = new FolderWatcher({
  normaliser,
  rules,
  fallbackIntervalMs: Number(interval),
  onEvent: (event) => process.stdout.write(`${JSON.stringify(event)}\n`),
});
await watcher.start();
process.stdout.write(`${JSON.stringify({ type: 'started' })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void watcher.close().then(() => process.exit(0)));

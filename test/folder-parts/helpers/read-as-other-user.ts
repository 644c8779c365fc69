// Run as an unprivileged user by the tests (root ignores file modes): reads one file
// through the classifier, the hasher and the stability check, and prints the outcomes.
import { classifyFile } from '../../../main/engine/folder-parts/file-classifier.ts';
import { sha256FileSync } from '../../../main/engine/folder-parts/sha256-file.ts';
import { waitUntilStable } from '../../../main/engine/folder-parts/stability.ts';

const file = process.argv[2];
if (file === undefined) {
  console.error('usage: read-as-other-user.ts FILE');
  process.exit(2);
}
const classification = await classifyFile(file, 'library-upload');
const hash = sha256FileSync(file, Buffer.alloc(1024));
const stability = await waitUntilStable(file, { windowMs: 0 });
console.log(JSON.stringify({ uid: process.getuid?.(), classification, hash, stability }));

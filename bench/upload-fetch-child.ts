// Bare `fetch` as a one-off script runs it, for `npm run bench upload`: a Node process of its
// own, started for one run, sending every file of a folder (argv: folder, base URL, brand,
// concurrency; the key in UPLOAD_BENCH_KEY, never an argument). It prints its time from the
// first request to the last answer (its own start and exit not counted) and its CPU seconds
// meanwhile, as JSON on one line.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fetchUploads } from './upload-fetch.ts';

const [dir, baseUrl, brandId, concurrency] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];
const files = (await readdir(dir))
  .filter((name) => name.endsWith('.png'))
  .sort()
  .map((name) => path.join(dir, name));

const cpuBefore = process.cpuUsage();
const start = performance.now();
await fetchUploads(
  files,
  { baseUrl, brandId, key: process.env.UPLOAD_BENCH_KEY ?? '' },
  Number(concurrency),
);
const ms = performance.now() - start;
const used = process.cpuUsage(cpuBefore);
console.log(JSON.stringify({ ms, cpu: (used.user + used.system) / 1e6, files: files.length }));

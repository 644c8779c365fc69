// First scan and hash of 10,000 images (about 1 GB) by the folder sync (scanner + hasher
// pool), against `openssl dgst -sha256` over the same files in the same run. Target: at
// most 1.5 times openssl's time. Both run on a warm page cache (the files were just
// written and read once), so what is compared is per-file overhead and hashing, not the
// disk. The runs alternate, and medians are compared.
import { spawnSync } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { HasherPool } from '../main/engine/folder-parts/file-hasher.ts';
import { IgnoreRulesRegistry } from '../main/engine/folder-parts/ignore-rules.ts';
import { PathNormaliser } from '../main/engine/folder-parts/path-normalise.ts';
import { scanRoot } from '../main/engine/folder-parts/scanner.ts';
import { percentile, report } from './report.ts';

const BRANDS = 10;
// A smaller tree for a quick check of the bench itself: SCAN_HASH_FILES_PER_BRAND=50.
const FILES_PER_BRAND = Number(process.env.SCAN_HASH_FILES_PER_BRAND ?? 1000);
const MEAN_SIZE = 100_000; // sizes spread 50-150 kB around it
const ROUNDS = 3;

async function makeTree(root: string): Promise<number> {
  const pool = randomFillSync(Buffer.alloc(4 * 1024 * 1024));
  let total = 0;
  for (let b = 0; b < BRANDS; b++) {
    for (let d = 0; d < 10; d++)
      await mkdir(path.join(root, `Brand ${b}`, `shoot-${d}`), { recursive: true });
    const writes: Promise<void>[] = [];
    for (let f = 0; f < FILES_PER_BRAND; f++) {
      const size = MEAN_SIZE / 2 + ((f * 7919 + b * 104_729) % MEAN_SIZE);
      const offset = (f * 65_537 + b * 131) % (pool.length - size);
      const content = Buffer.from(pool.subarray(offset, offset + size));
      content.writeUInt32BE(b * FILES_PER_BRAND + f, 0); // every file different
      total += size;
      writes.push(
        writeFile(path.join(root, `Brand ${b}`, `shoot-${f % 10}`, `img-${f}.png`), content),
      );
      if (writes.length >= 64) await Promise.all(writes.splice(0));
    }
    await Promise.all(writes);
  }
  return total;
}

function time<T>(fn: () => T): { ms: number; value: T } {
  const start = process.hrtime.bigint();
  const value = fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

async function timeAsync<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

/** openssl over every file, as a shell user would: find | xargs openssl dgst. */
function openssl(root: string, out: string): number {
  const run = time(() =>
    spawnSync(
      'sh',
      ['-c', 'find "$1" -type f -print0 | xargs -0 openssl dgst -sha256 > "$2"', 'sh', root, out],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    ),
  );
  if (run.value.status !== 0) throw new Error(`openssl run failed (exit ${run.value.status})`);
  return run.ms;
}

/** The engine's first scan: walk the root, hash every file found. */
async function scanAndHash(root: string, threads?: number): Promise<Map<string, string>> {
  const normaliser = await PathNormaliser.forRoot(root);
  const rules = new IgnoreRulesRegistry(root, { caseInsensitive: normaliser.caseInsensitive });
  const pool = new HasherPool({ threads });
  const hashes = new Map<string, string>();
  const pending: Promise<void>[] = [];
  try {
    for await (const item of scanRoot({ normaliser, rules })) {
      if (item.type !== 'file') continue;
      pending.push(
        pool.hash(item.absPath).then((r) => {
          if (r.status !== 'hashed') throw new Error(`${item.absPath}: ${r.status}`);
          hashes.set(item.absPath, r.sha256);
        }),
      );
    }
    await Promise.all(pending);
  } finally {
    await pool.close();
  }
  return hashes;
}

async function scanOnly(root: string): Promise<number> {
  const normaliser = await PathNormaliser.forRoot(root);
  const rules = new IgnoreRulesRegistry(root, { caseInsensitive: normaliser.caseInsensitive });
  let files = 0;
  for await (const item of scanRoot({ normaliser, rules })) if (item.type === 'file') files++;
  return files;
}

/** The naive baseline: one createReadStream piped into a hash, a file at a time. */
async function naiveStreams(paths: string[]): Promise<void> {
  for (const p of paths) {
    const hash = createHash('sha256');
    await pipeline(createReadStream(p), hash);
    hash.digest('hex');
  }
}

const median = (xs: number[]) => percentile(xs, 50);

const root = await mkdtemp(path.join(os.tmpdir(), 'brand-sync-bench-scan-hash-'));
try {
  const made = await timeAsync(() => makeTree(root));
  spawnSync('sync'); // no writeback competing with the timed runs
  const opensslOut = path.join(os.tmpdir(), `brand-sync-bench-openssl-${process.pid}.txt`);
  openssl(root, opensslOut); // warm-up: every file read once, for both sides alike
  const opensslMs: number[] = [];
  const oursMs: number[] = [];
  let hashes = new Map<string, string>();
  for (let round = 0; round < ROUNDS; round++) {
    opensslMs.push(openssl(root, opensslOut));
    const ours = await timeAsync(() => scanAndHash(root));
    oursMs.push(ours.ms);
    hashes = ours.value;
  }
  // Same answers as openssl, file by file.
  const expected = new Map<string, string>();
  for (const line of (await readFile(opensslOut, 'utf8')).split('\n')) {
    const m = /^SHA2?-?256\((.*)\)= ([0-9a-f]{64})$/.exec(line);
    if (m) expected.set(m[1] as string, m[2] as string);
  }
  await rm(opensslOut, { force: true });
  const mismatches = [...expected].filter(([p, h]) => hashes.get(p) !== h).length;
  if (
    expected.size !== BRANDS * FILES_PER_BRAND ||
    hashes.size !== expected.size ||
    mismatches > 0
  ) {
    throw new Error(
      `hashes disagree: openssl ${expected.size}, ours ${hashes.size}, ${mismatches} differ`,
    );
  }

  const allCores = Math.min(4, os.availableParallelism());
  const allCoresRun = await timeAsync(() => scanAndHash(root, allCores));
  const scan = await timeAsync(() => scanOnly(root));
  const naive = await timeAsync(() => naiveStreams([...hashes.keys()]));
  const opensslMedian = median(opensslMs);
  const oursMedian = median(oursMs);
  const bytes = made.value;
  report('scan-hash', {
    files: hashes.size,
    megabytes: bytes / 1e6,
    cache: 'warm (files written, then read once by a warm-up run)',
    rounds: ROUNDS,
    hasherThreads: new HasherPool().threads,
    opensslMs: { median: opensslMedian, runs: opensslMs.join(' ') },
    scanAndHashMs: { median: oursMedian, runs: oursMs.join(' ') },
    ratioToOpenssl: oursMedian / opensslMedian,
    targetRatio: 1.5,
    throughputMBps: bytes / 1e6 / (oursMedian / 1000),
    filesPerSecond: hashes.size / (oursMedian / 1000),
    allCoresThreads: allCores,
    allCoresMs: allCoresRun.ms,
    allCoresRatio: allCoresRun.ms / opensslMedian,
    scanOnlyMs: scan.ms,
    naiveStreamMs: naive.ms,
    naiveStreamRatio: naive.ms / opensslMedian,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    makeTreeMs: made.ms,
  });
} finally {
  await rm(root, { recursive: true, force: true });
}

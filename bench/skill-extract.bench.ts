// Installing a 200 MB Brand Skill export of 2,000 files (check, streaming extraction with
// CRC and SHA-256 of every file, fsync, manifest, swap) against `unzip -q` on the same ZIP
// in the same run. Targets: time ≤ 1.5 × unzip; peak RSS of the installing process < 150 MB.
// Each install runs in a child process of its own, so that its peak RSS is its own.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { ZipFile } from 'yazl';
import { installSkillArchive } from '../main/engine/export-parts/skill-install.ts';
import { percentile, report } from './report.ts';

const FILES = 2000;
const TOTAL_BYTES = 200 * 1024 * 1024;
const TEXT_SHARE = 0.1; // markdown and JSON: a tenth of the bytes, a fifth of the files
const RUNS = 3;
const SKILL_ID = 'bench000-0000-4000-8000-000000000000';

interface ChildResult {
  ms: number;
  maxRssKiB: number;
}

if (process.argv[2] === '--idle') {
  // The same child with the modules loaded and nothing installed: the floor of its RSS
  // (Node plus TypeScript stripping), to tell the extraction's own share.
  void installSkillArchive;
  console.log(JSON.stringify({ ms: 0, maxRssKiB: peakRssKiB() }));
} else if (process.argv[2] === '--install') {
  // The child: one install, then its time and peak RSS on stdout.
  const [zipPath, brandDir] = process.argv.slice(3) as [string, string];
  const started = performance.now();
  await installSkillArchive({ zipPath, brandDir, skillId: SKILL_ID, keepVersions: 0 });
  const result: ChildResult = { ms: performance.now() - started, maxRssKiB: peakRssKiB() };
  console.log(JSON.stringify(result));
} else {
  await main();
}

/**
 * Peak RSS of this process. On Linux, getrusage's maxRSS survives exec and so starts at the
 * parent's RSS at fork time (here the parent has just built a 200 MB archive); VmHWM
 * belongs to this process image alone.
 */
function peakRssKiB(): number {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(status);
    if (match) return Number(match[1]);
  } catch {
    // Not Linux: maxRSS is the best there is.
  }
  return process.resourceUsage().maxRSS;
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'brand-sync-bench-'));
  try {
    const zipPath = path.join(work, 'skill.zip');
    await buildExport(zipPath);
    const zipBytes = (await stat(zipPath)).size;
    const ours: number[] = [];
    const unzip: number[] = [];
    let peakRssKiB = 0;
    // Alternated, so that both see the same cache and machine load.
    for (let run = 0; run < RUNS; run++) {
      const unzipDir = path.join(work, `unzip-${run}`);
      const started = performance.now();
      const u = spawnSync('unzip', ['-q', zipPath, '-d', unzipDir], { stdio: 'inherit' });
      if (u.status !== 0) throw new Error(`unzip failed (${u.status ?? u.signal})`);
      unzip.push(performance.now() - started);
      await rm(unzipDir, { recursive: true, force: true });

      const brandDir = path.join(work, `brand-${run}`);
      await mkdir(brandDir);
      const child = spawnSync(
        process.execPath,
        [fileURLToPath(import.meta.url), '--install', zipPath, brandDir],
        {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      if (child.status !== 0) throw new Error(`install failed (${child.status ?? child.signal})`);
      const result = JSON.parse(child.stdout) as ChildResult;
      ours.push(result.ms);
      peakRssKiB = Math.max(peakRssKiB, result.maxRssKiB);
      await rm(brandDir, { recursive: true, force: true });
    }
    const idle = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--idle'], {
      encoding: 'utf8',
    });
    const idleRssKiB = (JSON.parse(idle.stdout) as ChildResult).maxRssKiB;
    const oursMs = percentile(ours, 50);
    const unzipMs = percentile(unzip, 50);
    report('skill-extract', {
      export: { files: FILES, expandedMiB: TOTAL_BYTES / 2 ** 20, zipMiB: zipBytes / 2 ** 20 },
      runs: RUNS,
      installMedianMs: oursMs,
      unzipMedianMs: unzipMs,
      ratioToUnzip: oursMs / unzipMs,
      ratioTarget: 1.5,
      peakRssMiB: peakRssKiB / 1024,
      peakRssTargetMiB: 150,
      idleChildRssMiB: idleRssKiB / 1024,
      installMsPerRun: ours.map(Math.round).join(' '),
      unzipMsPerRun: unzip.map(Math.round).join(' '),
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * A Skill-shaped export: markdown and JSON (deflated) and binary assets (stored, as image
 * data hardly compresses), in nested folders, totalling TOTAL_BYTES.
 */
async function buildExport(zipPath: string): Promise<void> {
  const zip = new ZipFile();
  const textFiles = FILES / 5;
  const textSize = Math.floor((TOTAL_BYTES * TEXT_SHARE) / textFiles);
  const assetSize = Math.floor((TOTAL_BYTES * (1 - TEXT_SHARE)) / (FILES - textFiles));
  const words = [
    'brand',
    'colour',
    'logo',
    'type',
    'voice',
    'tone',
    'grid',
    'spacing',
    'accent',
    'primary',
  ];
  const written = pipeline(zip.outputStream, createWriteStream(zipPath));
  for (let i = 0; i < FILES; i++) {
    const folder = `topic-${i % 20}/${i % 3 === 0 ? 'detail/' : ''}`;
    if (i % 5 === 0) {
      const seed = randomBytes(textSize);
      const text = Array.from(seed, (b) => words[b % words.length])
        .join(' ')
        .slice(0, textSize);
      zip.addBuffer(Buffer.from(text), `${folder}notes-${i}.md`);
    } else {
      zip.addBuffer(randomBytes(assetSize), `assets/${folder}asset-${i}.png`, { compress: false });
    }
  }
  zip.end();
  await written;
}

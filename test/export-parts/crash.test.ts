// The export sync killed with SIGKILL during download, extraction and swap: after a restart
// (recovery), `Brand Skill/` is always one complete copy, the old or the new, never a mix,
// and every kept previous version is complete too.
import { prng, runChild } from '../support/crash-child.ts';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  installSkillArchive,
  readInstalledSkill,
} from '../../main/engine/export-parts/skill-install.ts';
import type { SwapStep } from '../../main/engine/export-parts/skill-install.ts';
import { skillLayout } from '../../main/engine/export-parts/skill-layout.ts';
import { recoverSkillInstalls } from '../../main/engine/export-parts/skill-recover.ts';
import { listSkillVersions } from '../../main/engine/export-parts/skill-versions.ts';
import type { ChildConfig, KillPoint } from './fixtures/export-sync-child.ts';
import {
  expectedFiles,
  removeDir,
  skillContents,
  skillTreeFiles,
  tempDir,
  writeYazlZip,
} from './skill-fixtures.ts';

const child = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures',
  'export-sync-child.ts',
);
const ROUNDS = 20;
const KEEP = 2;
const SWAP_STEPS: SwapStep[] = [
  'journal-written',
  'previous-moved',
  'installed',
  'journal-cleared',
  'pruned',
];
// The server sends the ZIP in small pieces with a pause between, so that the download is
// a phase of its own and a kill mid-download leaves a partial file to resume.
const PIECE = 32 * 1024;

interface Skill {
  id: string;
  files: Record<string, string>;
  fileCount: number;
  zip: Buffer;
}

let work: string;
let server: http.Server;
let baseUrl: string;
let resumedRequests = 0;
const skills: Skill[] = [];

beforeAll(async () => {
  work = await tempDir();
  for (const [index, id] of [
    'aaaaaaaa-0000-4000-8000-000000000001',
    'bbbbbbbb-0000-4000-8000-000000000002',
  ].entries()) {
    const contents = skillContents(index + 1, 120 + 30 * index, 8000);
    const zipPath = path.join(work, `${id}.zip`);
    await writeYazlZip(contents, zipPath);
    skills.push({
      id,
      files: expectedFiles(contents),
      fileCount: contents.size,
      zip: await readFile(zipPath),
    });
  }
  server = http.createServer((req, res) => void serve(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await removeDir(work);
});

async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const skill = skills.find((s) => req.url === `/exports/${s.id}.zip`);
  if (!skill) {
    res.writeHead(404).end();
    return;
  }
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  const start = range ? Number(range[1]) : 0;
  const headers = { 'content-type': 'application/zip', 'accept-ranges': 'bytes' };
  if (start >= skill.zip.length) {
    res.writeHead(416, { 'content-range': `bytes */${skill.zip.length}` }).end();
    return;
  }
  if (start > 0) {
    resumedRequests++;
    res.writeHead(206, {
      ...headers,
      'content-length': skill.zip.length - start,
      'content-range': `bytes ${start}-${skill.zip.length - 1}/${skill.zip.length}`,
    });
  } else {
    res.writeHead(200, { ...headers, 'content-length': skill.zip.length });
  }
  for (let at = start; at < skill.zip.length && !res.destroyed; at += PIECE) {
    res.write(skill.zip.subarray(at, at + PIECE));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  res.end();
}

test('SIGKILL at any moment of download, extraction or swap leaves a complete copy after restart', async () => {
  const seed = Number(process.env.CRASH_SEED ?? Date.now());
  const random = prng(seed);
  const pick = (n: number): number => Math.floor(random() * n);
  const [a, b] = skills as [Skill, Skill];
  const brandDir = path.join(work, 'root', 'Acme');
  const downloads = path.join(work, 'downloads');
  await mkdir(brandDir, { recursive: true });
  await mkdir(downloads, { recursive: true });
  const firstZip = path.join(work, 'first.zip');
  await writeFile(firstZip, a.zip);
  await installSkillArchive({ zipPath: firstZip, brandDir, skillId: a.id, keepVersions: KEEP });

  const byId = new Map(skills.map((s) => [s.id, s]));
  const configFor = (target: Skill, killAt: KillPoint | null): ChildConfig => ({
    baseUrl,
    url: `${baseUrl}/exports/${target.id}.zip`,
    zipPath: path.join(downloads, `${target.id}.zip`),
    size: target.zip.length,
    brandDir,
    skillId: target.id,
    keepVersions: KEEP,
    killAt,
  });
  const installed = async (): Promise<Skill> => {
    const onDisk = await readInstalledSkill(brandDir);
    const skill = onDisk && byId.get(onDisk.skillId);
    if (!skill) throw new Error(`seed ${seed}: no known Skill in Brand Skill/`);
    return skill;
  };

  // A full run first: it must succeed, and its duration bounds the random kill times.
  const full = await runChild(child, configFor(b, null));
  expect(full.code, full.output).toBe(0);
  expect((await installed()).id).toBe(b.id);
  const kills: Record<string, number> = { download: 0, extract: 0, swap: 0, timer: 0 };

  for (let round = 0; round < ROUNDS; round++) {
    const current = await installed();
    const target = current === a ? b : a;
    const mode = (['download', 'extract', 'swap', 'timer'] as const)[
      round % 4
    ] as keyof typeof kills;
    const chunks = Math.ceil(target.zip.length / PIECE);
    const killAt: KillPoint | null =
      mode === 'download'
        ? { phase: 'download', bytes: (4 + pick(chunks - 8)) * PIECE }
        : mode === 'extract'
          ? { phase: 'extract', file: 1 + pick(target.fileCount) }
          : mode === 'swap'
            ? { phase: 'swap', step: SWAP_STEPS[pick(SWAP_STEPS.length)] as SwapStep }
            : null;
    const run = await runChild(
      child,
      configFor(target, killAt),
      mode === 'timer' ? random() * full.ms : undefined,
    );
    const context = `seed ${seed}, round ${round}, ${mode} ${JSON.stringify(killAt)}: ${run.output}`;
    if (run.signal === 'SIGKILL') kills[mode] = (kills[mode] ?? 0) + 1;
    else expect(run.code, context).toBe(0);

    // The restart.
    await recoverSkillInstalls(brandDir);

    const now = await installed();
    expect(await skillTreeFiles(skillLayout(brandDir).live), context).toEqual(now.files);
    if (run.signal !== 'SIGKILL') expect(now.id, context).toBe(target.id);
    // The journal is written only after the new copy is complete: from then on, recovery finishes.
    else if (mode === 'swap') expect(now.id, context).toBe(target.id);
    else if (mode !== 'timer') expect(now.id, context).toBe(current.id);
    for (const version of await listSkillVersions(brandDir)) {
      const kept = byId.get(version.skillId ?? '');
      expect(kept, context).toBeDefined();
      expect(await skillTreeFiles(version.dir), context).toEqual(kept?.files);
    }
    expect(await readdir(skillLayout(brandDir).staging), context).toEqual([]);
  }

  expect(kills.download).toBeGreaterThan(0);
  expect(kills.extract).toBeGreaterThan(0);
  expect(kills.swap).toBeGreaterThan(0);
  // A download killed midway was resumed from its partial file.
  expect(resumedRequests).toBeGreaterThan(0);
  // 21 child processes and a tree check after each: about 8 s on a quiet 2-core machine, past
  // 30 s beside another suite. The limit is there to catch a hang, as in export-sync/crash.
}, 120_000);

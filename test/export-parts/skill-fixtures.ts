// Shared by the export tests: temp dirs, deterministic Skill contents, ZIPs made with yazl
// (a real writer, as the service would use), and a byte-exact snapshot of a folder tree.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { lstat, mkdtemp, readFile, readdir, readlink, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { MANIFEST_NAME } from '../../main/engine/export-parts/skill-layout.ts';

export async function tempDir(prefix = 'brand-sync-exports-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Deterministic bytes (xorshift), so a failure reproduces with the same files. */
export function pseudoRandomBytes(seed: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** A Skill-like set of files: markdown, a profile, and binary assets in nested folders. */
export function skillContents(
  seed: number,
  fileCount: number,
  assetBytes = 4096,
): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  files.set('SKILL.md', Buffer.from(`# Brand Skill ${seed}\n\nUse the colours in profile.json.\n`));
  files.set(
    'profile.json',
    Buffer.from(JSON.stringify({ name: `Brand ${seed}`, colors: ['#112233'] })),
  );
  for (let i = 0; files.size < fileCount; i++) {
    const folder = `assets/set-${i % 7}/${i % 3 === 0 ? 'deep/er/' : ''}`;
    if (i % 4 === 0) {
      files.set(
        `topics/topic-${i}.md`,
        Buffer.from(`## Topic ${i} of skill ${seed}\n`.repeat(20 + (i % 50))),
      );
    } else {
      files.set(
        `${folder}asset-${i}.bin`,
        pseudoRandomBytes(seed * 100_003 + i, assetBytes + ((i * 37) % 911)),
      );
    }
  }
  return files;
}

/** Writes a ZIP of `files` with yazl; deflate for text, stored for binary (like real exports). */
export async function writeYazlZip(files: Map<string, Buffer>, zipPath: string): Promise<void> {
  const zip = new ZipFile();
  for (const [name, data] of files) zip.addBuffer(data, name, { compress: !name.endsWith('.bin') });
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(zipPath));
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Every path under `dir` with what it is: a folder, a file and the hash of its bytes, or a
 * link and its target. Two equal snapshots mean a byte-identical tree.
 */
export async function snapshotTree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (rel: string): Promise<void> => {
    const names = (await readdir(path.join(dir, rel))).sort();
    for (const name of names) {
      const relPath = rel === '' ? name : `${rel}/${name}`;
      const full = path.join(dir, relPath);
      const info = await lstat(full);
      if (info.isSymbolicLink()) out[relPath] = `link:${await readlink(full)}`;
      else if (info.isDirectory()) {
        out[relPath] = 'dir';
        await walk(relPath);
      } else out[relPath] = `file:${sha256(await readFile(full))}`;
    }
  };
  await walk('');
  return out;
}

/** The files of an installed `Brand Skill/` (manifest left out) as path → sha256. */
export async function skillTreeFiles(liveDir: string): Promise<Record<string, string>> {
  const tree = await snapshotTree(liveDir);
  const files: Record<string, string> = {};
  for (const [p, what] of Object.entries(tree)) {
    if (p !== MANIFEST_NAME && what.startsWith('file:')) files[p] = what.slice('file:'.length);
  }
  return files;
}

/** What `skillTreeFiles` should find for these contents. */
export function expectedFiles(contents: Map<string, Buffer>): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [name, data] of contents) files[name] = sha256(data);
  return files;
}

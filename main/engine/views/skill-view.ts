// The Brand Skill on disk, for the window: which version lies in `Brand Skill/`, when it was
// installed, the versions kept, its files as a tree, and its profile (colours, fonts, logo).
// From the disk and the store only: offline.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import type { skillDoc, skillFileDoc } from '../../../contract/index.ts';
import { BRAND_SKILL_DIR } from '../folder-parts/folder-layout.ts';
import { readManifest } from '../export-parts/skill-manifest.ts';
import { listSkillVersions } from '../export-parts/skill-versions.ts';
import type { Brand, Store } from '../store/index.ts';
import { resolveInside } from './safe-path.ts';
import { readSkillProfile } from './skill-profile.ts';
import { iso } from './status.ts';

type SkillDoc = z.infer<typeof skillDoc>;
type SkillFileDoc = z.infer<typeof skillFileDoc>;

const TEXT_LIMIT = 1024 * 1024;
const MIME: Record<string, string> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.ico': 'image/x-icon',
  '.html': 'text/html',
  '.csv': 'text/csv',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.pdf': 'application/pdf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
};

export function mimeTypeOf(file: string): string {
  return MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** `<root>/<brand folder>/Brand Skill`, where the brand's folder is now; else the install path. */
export function liveSkillDir(store: Store, root: string, brand: Brand): string | null {
  if (brand.folderName !== null) return path.join(root, brand.folderName, BRAND_SKILL_DIR);
  return store.exports.latestInstalled(brand.id)?.path ?? null;
}

export async function skillView(
  store: Store,
  root: string,
  brand: Brand,
  versionsKept: number,
): Promise<SkillDoc> {
  const live = liveSkillDir(store, root, brand);
  const manifest = live === null ? null : await readManifest(live).catch(() => null);
  const installed = store.exports.latestInstalled(brand.id);
  const empty: SkillDoc = {
    brandId: brand.id,
    installed: false,
    skillId: null,
    activeSkillId: brand.skillId,
    installedAt: null,
    exportedAt: iso(installed?.createdAt),
    path: live,
    versionsKept,
    versions: [],
    tree: [],
    profile: null,
  };
  if (live === null || manifest === null) return empty;
  const versions = await listSkillVersions(path.dirname(live)).catch(() => []);
  const dirs = new Set<string>();
  for (const file of manifest.files) {
    const parts = file.path.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  const tree = [
    ...[...dirs].map((dir) => ({ path: dir, kind: 'dir' as const, size: 0 })),
    ...manifest.files.map((file) => ({ path: file.path, kind: 'file' as const, size: file.size })),
  ].sort((a, b) => a.path.localeCompare(b.path));
  const profile = readSkillProfile(live, manifest.skillId);
  return {
    ...empty,
    installed: true,
    skillId: manifest.skillId,
    installedAt: manifest.installedAt,
    exportedAt: installed?.skillId === manifest.skillId ? iso(installed.createdAt) : null,
    versions: [
      { skillId: manifest.skillId, installedAt: manifest.installedAt, current: true },
      ...versions.map((v) => ({
        skillId: v.skillId,
        installedAt: v.retiredAt.toISOString(),
        current: false,
      })),
    ],
    tree,
    profile:
      profile === null
        ? null
        : {
            name: profile.name,
            colors: profile.colors,
            fonts: profile.fonts,
            logo:
              profile.logoPath === null
                ? null
                : { area: 'skill', brandId: brand.id, path: profile.logoPath },
          },
  };
}

/** The real path of a file of the brand's unpacked Brand Skill; null when outside or missing. */
export async function skillFilePath(
  store: Store,
  root: string,
  brand: Brand,
  rel: string,
): Promise<string | null> {
  const live = liveSkillDir(store, root, brand);
  return live === null ? null : resolveInside(live, rel);
}

export async function skillFile(
  store: Store,
  root: string,
  brand: Brand,
  rel: string,
): Promise<SkillFileDoc | null> {
  const file = await skillFilePath(store, root, brand, rel);
  if (file === null) return null;
  const mimeType = mimeTypeOf(file);
  const bytes = await readFile(file);
  const textual = /^text\/|json|svg/.test(mimeType) && bytes.length <= TEXT_LIMIT;
  return {
    brandId: brand.id,
    path: rel,
    size: bytes.length,
    mimeType,
    text: textual ? bytes.toString('utf8') : null,
    file: { area: 'skill', brandId: brand.id, path: rel },
  };
}

// A path a face asked for, kept inside the folder it names: no absolute path, no `..`, no
// NUL, and after resolving symlinks still inside (a link out of the folder is refused). Every
// file the bridge serves (thumbnails, Brand Skill files) goes through here.
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** The real path of `rel` inside `base`, or null when it is outside, missing or not a file. */
export async function resolveInside(base: string, rel: string): Promise<string | null> {
  if (rel === '' || rel.includes('\0') || rel.includes('\\')) return null;
  if (path.posix.isAbsolute(rel) || /^[a-z]:/i.test(rel)) return null;
  const parts = rel.split('/');
  if (parts.some((part) => part === '..' || part === '.')) return null;
  let realBase: string;
  let target: string;
  try {
    realBase = await realpath(base);
    target = await realpath(path.join(realBase, ...parts));
  } catch {
    return null;
  }
  const inside = path.relative(realBase, target);
  if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) return null;
  try {
    return (await stat(target)).isFile() ? target : null;
  } catch {
    return null;
  }
}

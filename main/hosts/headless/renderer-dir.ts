// Where the built window is: BRAND_SYNC_RENDERER_DIR, else `dist/renderer` of the project this
// code runs from (from the sources or from a build under dist/).
import { existsSync } from 'node:fs';
import path from 'node:path';

export function rendererDir(env: Record<string, string | undefined> = process.env): string | null {
  const given = env.BRAND_SYNC_RENDERER_DIR;
  if (given) return existsSync(path.join(given, 'index.html')) ? path.resolve(given) : null;
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'dist', 'renderer');
    if (existsSync(path.join(candidate, 'index.html'))) return candidate;
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'renderer')))
      return null;
    if (path.dirname(dir) === dir) return null;
  }
}

// The window's size and position, remembered across starts and kept on a screen that exists
// now (a monitor unplugged since must not leave the window off-screen).
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface WindowState {
  bounds: Bounds | null;
  maximized: boolean;
}

export const DEFAULT_SIZE = { width: 1200, height: 780 };
const FILE = 'window-state.json';

export async function loadWindowState(dataDir: string): Promise<WindowState> {
  try {
    const raw = JSON.parse(
      await readFile(path.join(dataDir, FILE), 'utf8'),
    ) as Partial<WindowState>;
    const b = raw.bounds;
    const valid =
      b !== null &&
      typeof b === 'object' &&
      [b?.x, b?.y, b?.width, b?.height].every((n) => typeof n === 'number' && Number.isFinite(n));
    return { bounds: valid ? (b as Bounds) : null, maximized: raw.maximized === true };
  } catch {
    return { bounds: null, maximized: false };
  }
}

export async function saveWindowState(dataDir: string, state: WindowState): Promise<void> {
  const file = path.join(dataDir, FILE);
  await writeFile(`${file}.tmp`, JSON.stringify(state));
  await rename(`${file}.tmp`, file);
}

/** The saved bounds if most of the window falls on one of these work areas; else null. */
export function boundsOnScreen(bounds: Bounds | null, workAreas: readonly Bounds[]): Bounds | null {
  if (bounds === null || bounds.width < 400 || bounds.height < 300) return null;
  const visible = workAreas.some((area) => {
    const w = Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x);
    const h = Math.min(bounds.y + bounds.height, area.y + area.height) - Math.max(bounds.y, area.y);
    return w > 0 && h > 0 && w * h >= 0.5 * bounds.width * bounds.height;
  });
  return visible ? bounds : null;
}

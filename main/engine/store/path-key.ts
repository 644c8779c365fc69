// Paths inside a brand folder are stored NFC with '/' separators; the key folds case so
// that two spellings of one file on a case-insensitive, normalising disk (macOS, Windows)
// are one row.
import { StoreError } from './store-error.ts';

export function normalizeRelPath(relPath: string): string {
  const normalized = relPath.normalize('NFC').replaceAll('\\', '/');
  if (
    normalized === '' ||
    normalized.startsWith('/') ||
    /^[a-zA-Z]:/.test(normalized) ||
    normalized.split('/').some((part) => part === '' || part === '.' || part === '..')
  ) {
    throw new StoreError(
      'INVALID_ARGUMENT',
      `"${relPath}" is not a plain relative path inside a brand folder (no leading /, no empty, . or .. parts).`,
    );
  }
  return normalized;
}

export function pathKey(relPath: string): string {
  return normalizeRelPath(relPath).toLowerCase().normalize('NFC');
}

// The settings a window changes, kept in the store: where the brand folders live, which
// service to talk to, and how the window looks. A flag or an environment variable given to
// the process fixes a value for that process instead (the stored one waits).
import { z } from 'zod';
import { defineSetting } from '../store/index.ts';

export const syncRootSetting = defineSetting(
  'app.syncRoot',
  z.string().min(1).nullable(),
  null,
  'The sync root chosen in the window (null: the default, ~/Brand Sync).',
);

export const baseUrlSetting = defineSetting(
  'app.baseUrl',
  z.string().min(1).nullable(),
  null,
  'The service chosen in the window (its keychain entry is its own).',
);

export const themeSetting = defineSetting(
  'app.theme',
  z.enum(['system', 'light', 'dark']),
  'system',
  "The window's theme: follow the OS, or always light or dark.",
);

export const startAtLoginSetting = defineSetting(
  'app.startAtLogin',
  z.boolean(),
  false,
  'Start Brand Sync when the user logs in (desktop app only).',
);

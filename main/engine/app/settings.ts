// The settings screen's document and its changes: each change lands in the store, and a new
// sync root or service restarts the engine on it (its queue kept).
import type { SettingsChange, SettingsDoc } from '../../../contract/index.ts';
import { skillKeepVersionsSetting } from '../export-sync/index.ts';
import { mediaCacheMaxBytesSetting } from '../store/index.ts';
import { startAtLoginSetting, themeSetting } from './app-settings.ts';
import type { AppRuntime } from './app-runtime.ts';
import { AppError } from './app-errors.ts';
import { serviceAddressProblem } from '../account/service-address.ts';
import { mediaCacheOf } from './media.ts';
import os from 'node:os';
import path from 'node:path';

export function settingsDoc(app: AppRuntime): SettingsDoc {
  const store = app.store;
  const login = app.host.loginItem;
  return {
    syncRoot: app.root,
    syncRootFixed: app.rootFixed,
    baseUrl: app.baseUrl,
    baseUrlFixed: app.baseUrlFixed,
    dataDir: app.dataDir,
    skillVersionsKept: store.settings.read(skillKeepVersionsSetting),
    mediaCache: {
      maxBytes: store.settings.read(mediaCacheMaxBytesSetting),
      usedBytes: store.mediaCache.totalBytes(),
      files: store.mediaCache.all().length,
    },
    startAtLogin: {
      supported: login !== undefined,
      enabled: login?.get() ?? store.settings.read(startAtLoginSetting),
      reason:
        login !== undefined
          ? null
          : (app.host.loginItemReason ?? 'Starting at login is a setting of the desktop app.'),
    },
    theme: store.settings.read(themeSetting),
  };
}

export async function updateSettings(
  app: AppRuntime,
  change: SettingsChange,
): Promise<SettingsDoc> {
  const store = app.store;
  if (
    change.syncRoot !== undefined &&
    !path.isAbsolute(change.syncRoot) &&
    !change.syncRoot.startsWith('~')
  ) {
    throw new AppError(
      'INVALID_INPUT',
      `The sync root must be an absolute path (got "${change.syncRoot}").`,
    );
  }
  if (change.syncRoot !== undefined && app.rootFixed) {
    throw new AppError(
      'INVALID_INPUT',
      'The sync root is fixed for this run by --root or BRAND_SYNC_ROOT.',
    );
  }
  if (change.baseUrl !== undefined && change.baseUrl !== app.baseUrl) {
    if (app.baseUrlFixedBy === 'start') {
      throw new AppError(
        'INVALID_INPUT',
        'The service is fixed for this run by --base-url or BRAND_SYNC_BASE_URL.',
      );
    }
    if (app.baseUrlFixedBy === 'credentials') {
      throw new AppError(
        'INVALID_INPUT',
        `The key this run was started with (${app.session.source === 'demo' ? "the demo's" : 'from BRAND_SYNC_API_KEY or BRAND_SYNC_ACCESS_TOKEN'}) belongs to ${app.baseUrl ?? 'no service'} and is never sent to another address: start Brand Sync without it to change the service.`,
      );
    }
    const problem = serviceAddressProblem(change.baseUrl);
    if (problem !== null) throw new AppError('INVALID_INPUT', problem);
  }
  if (change.startAtLogin !== undefined) {
    if (app.host.loginItem === undefined) {
      throw new AppError(
        'NOT_SUPPORTED',
        app.host.loginItemReason ?? 'Starting at login is a setting of the desktop app.',
      );
    }
    app.host.loginItem.set(change.startAtLogin);
    store.settings.write(startAtLoginSetting, change.startAtLogin);
  }
  if (change.skillVersionsKept !== undefined)
    store.settings.write(skillKeepVersionsSetting, change.skillVersionsKept);
  if (change.theme !== undefined) store.settings.write(themeSetting, change.theme);
  if (change.mediaCacheMaxBytes !== undefined) {
    store.settings.write(mediaCacheMaxBytesSetting, change.mediaCacheMaxBytes);
    await mediaCacheOf(app).enforceCap();
  }
  const root = change.syncRoot === undefined ? undefined : expandHome(change.syncRoot);
  if (
    (root !== undefined && root !== app.root) ||
    (change.baseUrl !== undefined && change.baseUrl !== app.baseUrl)
  ) {
    await app.reconfigure({
      ...(root !== undefined ? { root } : {}),
      ...(change.baseUrl !== undefined ? { baseUrl: change.baseUrl } : {}),
    });
  } else {
    app.journal.push({ type: 'settings' });
  }
  return settingsDoc(app);
}

/** Empties the offline media cache (files and rows); the mirror's records stay. */
export async function clearMediaCache(app: AppRuntime): Promise<SettingsDoc> {
  const store = app.store;
  const cap = store.settings.read(mediaCacheMaxBytesSetting);
  store.settings.write(mediaCacheMaxBytesSetting, 0);
  try {
    await mediaCacheOf(app).enforceCap();
  } finally {
    store.settings.write(mediaCacheMaxBytesSetting, cap);
  }
  app.journal.push({ type: 'settings' });
  return settingsDoc(app);
}

function expandHome(p: string): string {
  if (p !== '~' && !p.startsWith('~/')) return p;
  return path.join(os.homedir(), p.slice(1));
}

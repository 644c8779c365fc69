// Settings of the command line: options beat the environment, which beats the per-OS
// defaults (data dir and sync root).
import { expect, test } from 'vitest';
import { resolveConfig, credentialsFrom } from '../../main/hosts/cli/context.ts';
import { defaultDataDir, defaultSyncRoot } from '../../main/engine/core/paths.ts';

test('default data dir and sync root per OS', () => {
  const linux = { platform: 'linux' as const, home: '/home/ada', env: {} };
  expect(defaultDataDir(linux)).toBe('/home/ada/.config/brand-sync');
  expect(defaultDataDir({ ...linux, env: { XDG_CONFIG_HOME: '/xdg' } })).toBe('/xdg/brand-sync');
  expect(defaultDataDir({ ...linux, env: { XDG_CONFIG_HOME: 'relative' } })).toBe(
    '/home/ada/.config/brand-sync',
  );
  expect(defaultSyncRoot(linux)).toBe('/home/ada/Brand Sync');
  const mac = { platform: 'darwin' as const, home: '/Users/ada', env: {} };
  expect(defaultDataDir(mac)).toBe('/Users/ada/Library/Application Support/Brand Sync');
  expect(defaultSyncRoot(mac)).toBe('/Users/ada/Brand Sync');
  const win = {
    platform: 'win32' as const,
    home: 'C:\\Users\\ada',
    env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' },
  };
  expect(defaultDataDir(win)).toBe('C:\\Users\\ada\\AppData\\Roaming\\Brand Sync');
  expect(defaultDataDir({ ...win, env: {} })).toBe('C:\\Users\\ada\\AppData\\Roaming\\Brand Sync');
  expect(defaultSyncRoot(win)).toBe('C:\\Users\\ada\\Brand Sync');
});

test('options beat the environment; empty values count as unset', () => {
  const env = {
    BRAND_SYNC_BASE_URL: 'https://env.example/v1',
    BRAND_SYNC_DATA_DIR: '/env/data',
    BRAND_SYNC_ROOT: ' ',
  };
  const config = resolveConfig({ baseUrl: 'https://opt.example/v1' }, env);
  expect(config.baseUrl).toBe('https://opt.example/v1');
  expect(config.dataDir).toBe('/env/data');
  expect(config.root).toBe(defaultSyncRoot());
  expect(resolveConfig({}, {}).baseUrl).toBeUndefined();
});

test('the key goes over https, or plain http only to this computer', () => {
  for (const ok of [
    'https://api.example.com/v1',
    'http://127.0.0.1:4000/v1',
    'http://localhost/v1',
    'http://[::1]:9/v1',
  ]) {
    expect(resolveConfig({ baseUrl: ok }, {}).baseUrl).toBe(ok);
  }
  expect(() => resolveConfig({ baseUrl: 'http://api.example.com/v1' }, {})).toThrow(
    /Plain http:\/\/ is used only for this computer .*https:\/\/api\.example\.com\/v1/,
  );
  expect(() => resolveConfig({}, { BRAND_SYNC_BASE_URL: 'http://10.0.0.2/v1' })).toThrow(
    /BRAND_SYNC_BASE_URL/,
  );
  expect(() => resolveConfig({ baseUrl: 'https://me:pw@api.example.com' }, {})).toThrow(
    /user name or password/,
  );
  expect(() => resolveConfig({ baseUrl: 'ftp://api.example.com' }, {})).toThrow(/https:\/\//);
  expect(() => resolveConfig({ baseUrl: 'not a url' }, {})).toThrow(/is not a URL/);
});

test('the key comes from BRAND_SYNC_API_KEY only', () => {
  expect(credentialsFrom({ BRAND_SYNC_API_KEY: 'sk-1' })).toEqual({
    kind: 'api-key',
    secret: 'sk-1',
  });
  expect(credentialsFrom({ BRAND_SYNC_API_KEY: '' })).toBeUndefined();
  expect(credentialsFrom({})).toBeUndefined();
});

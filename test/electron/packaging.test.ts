// What can be checked of the release here, without Electron's runtime: the fuses the
// afterPack hook flips (the whole checklist), and the installer config (targets, icons, the
// N-API modules unpacked and not rebuilt). `npm run package` and a smoke start check the rest
// where the runtime exists (README).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { FuseV1Options } from '@electron/fuses';
import { expect, test } from 'vitest';

const require = createRequire(import.meta.url);
const { FUSES } = require('../../bin/fuses.cjs') as { FUSES: Record<number, boolean> };

test('the release fuses: no RunAsNode, NODE_OPTIONS or --inspect; asar only, checked; cookies encrypted; file:// without extra privileges', () => {
  expect(FUSES[FuseV1Options.RunAsNode]).toBe(false);
  expect(FUSES[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(false);
  expect(FUSES[FuseV1Options.EnableNodeCliInspectArguments]).toBe(false);
  expect(FUSES[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(true);
  expect(FUSES[FuseV1Options.OnlyLoadAppFromAsar]).toBe(true);
  expect(FUSES[FuseV1Options.EnableCookieEncryption]).toBe(true);
  // The app is served on app://, so file:// needs none of the privileges Electron gives it.
  expect(FUSES[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(false);
});

test('installers: AppImage, deb, dmg, nsis; icons at every size; N-API modules unpacked, not rebuilt', () => {
  const config = readFileSync('electron-builder.yml', 'utf8');
  for (const target of ['AppImage', 'deb', 'dmg', 'nsis'])
    expect(config).toMatch(new RegExp(`\\b${target}\\b`));
  expect(config).toMatch(/^appId: com\.brandsync\.desktop$/m);
  expect(config).toMatch(/^productName: Brand Sync$/m);
  expect(config).toMatch(/^npmRebuild: false$/m);
  expect(config).toContain('node_modules/better-sqlite3/**');
  expect(config).toContain('node_modules/@napi-rs/**');
  expect(config).toMatch(/^afterPack: \.\/bin\/flip-fuses\.cjs$/m);
  expect(existsSync('bin/flip-fuses.cjs')).toBe(true);
  for (const size of [16, 32, 48, 64, 128, 256, 512, 1024]) {
    expect(existsSync(`build/icons/${size}x${size}.png`)).toBe(true);
  }
  // Only the built output is packed: no TypeScript sources, tests or the simulator.
  expect(config).toContain("'!**/*.ts'");
  expect(config).toContain("'!dist/simulator/**'");
});

// electron-builder's afterPack hook: flips the fuses of the packed Electron binary so a
// release cannot be turned into a Node runtime or debugged from outside. CommonJS, as
// electron-builder requires hooks. The fuses are listed once, in fuses.cjs, which the
// checks in the README's `npm run package` smoke step read too.
const path = require('node:path');
const { flipFuses } = require('@electron/fuses');
const { FUSES } = require('./fuses.cjs');

exports.default = async function afterPack(context) {
  const name = context.packager.appInfo.productFilename;
  const binary =
    context.electronPlatformName === 'darwin'
      ? path.join(context.appOutDir, `${name}.app`, 'Contents', 'MacOS', name)
      : context.electronPlatformName === 'win32'
        ? path.join(context.appOutDir, `${name}.exe`)
        : path.join(context.appOutDir, context.packager.executableName);
  await flipFuses(binary, { version: require('@electron/fuses').FuseVersion.V1, ...FUSES });
};

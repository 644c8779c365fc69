// Layer rules (PRODUCT.md "Which piece may import which"), enforced here so that a
// forbidden import fails `npm test`, not a code review.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import svelte from 'eslint-plugin-svelte';

const noElectron = { name: 'electron', message: 'main/engine is plain Node: no Electron import.' };

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'coverage/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2024, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  ...svelte.configs.recommended,
  {
    files: ['renderer/**/*.svelte', 'renderer/**/*.svelte.ts', 'test/renderer/**/*.svelte.ts'],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] },
    },
  },
  {
    // The renderer reaches the engine only through the bridge, typed by contract/.
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer talks only to the bridge.' }],
          patterns: [
            {
              group: ['**/main/**', '**/simulator/**', '**/preload/**', 'node:*'],
              message:
                'The renderer imports nothing from main/, the simulator or Node: only contract/ types and the bridge.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['main/engine/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            { group: ['electron', 'electron/*'], message: noElectron.message },
            {
              group: ['**/simulator/**', '**/simulator'],
              message: 'The engine never imports the simulator.',
            },
            {
              group: ['**/renderer/**', '**/hosts/**'],
              message: 'The engine imports no host or renderer code.',
            },
          ],
        },
      ],
    },
  },
  {
    // An ES module import of node:http runs its lazy getters and loads undici, http2 and
    // assert (about 14 MB for good in `run`): engine and CLI take it from node-http.ts.
    files: ['main/engine/**', 'main/hosts/cli/**'],
    ignores: ['main/engine/api/node-http.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['node:http', 'http'].map((name) => ({
            name,
            allowTypeImports: true,
            message: 'Use main/engine/api/node-http.ts (an import of node:http costs ~14 MB).',
          })),
        },
      ],
    },
  },
  {
    files: ['simulator/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', '**/contract/**'],
              message: 'The simulator is the other side of the wire: it shares no code with main/.',
            },
            { group: ['electron', 'electron/*'], message: 'The simulator runs without Electron.' },
          ],
        },
      ],
    },
  },
  {
    // The contract is shared by the engine, the preload and the renderer: zod and itself only.
    files: ['contract/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|\\./[\\w.-]+$)',
              message: 'contract/ imports only zod (and its own modules).',
            },
          ],
        },
      ],
    },
  },
  {
    // One bridge client: no component or state class reaches a transport itself.
    files: ['renderer/**/*.ts', 'renderer/**/*.svelte'],
    ignores: ['renderer/src/lib/bridge/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['fetch', 'EventSource', 'XMLHttpRequest', 'WebSocket'].map((name) => ({
          name,
          message: 'The renderer talks to the engine only through renderer/src/lib/bridge.',
        })),
      ],
    },
  },
  {
    // Components act through lib/actions/ (the call, the toast or inline error, the refresh in
    // one place per area): only actions and state classes hold the bridge.
    files: ['renderer/src/lib/components/**', 'renderer/src/App.svelte'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='bridge']",
          message: 'A component reaches the engine through an action of renderer/src/lib/actions.',
        },
        {
          selector: 'ImportDeclaration[source.value=/\\/bridge\\//]',
          message: 'A component reaches the engine through an action of renderer/src/lib/actions.',
        },
      ],
    },
  },
  {
    // Electron lives in the desktop shell and its preload only: the CLI, the headless host,
    // the simulator and the contract run without it.
    // (main/engine and contract/ forbid it in their own rules; simulator/ below.)
    files: ['main/hosts/cli/**', 'main/hosts/headless/**', 'bin/**', 'bench/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // The package, not any path with an `electron` folder in it (bin/make-icons.ts
              // reads the tray states from main/hosts/electron/tray-state.ts, which imports no Electron).
              regex: '^electron(/.*)?$',
              message: 'Electron is imported only in main/hosts/electron/ and preload/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The shell reaches the window through the preload's named functions, never a raw
    // ipcRenderer; only the preload may touch it.
    files: ['main/hosts/electron/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              importNames: ['ipcRenderer', 'contextBridge'],
              message: 'ipcRenderer and contextBridge belong to preload/ only.',
            },
          ],
        },
      ],
    },
  },
  {
    // electron-builder loads its hooks with require(): these two stay CommonJS.
    files: ['bin/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The window takes only types from the contract: a value import would bundle zod, whose
    // eval probe the page's CSP refuses (and 100 kB more). The channel names stand alone.
    files: ['renderer/**/*.ts', 'renderer/**/*.svelte'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/contract/index.ts',
                '**/contract/channels.ts',
                '**/contract/shapes.ts',
                '**/contract/events.ts',
                '**/contract/result.ts',
              ],
              allowTypeImports: true,
              message:
                'The window imports only types from contract/ (values: contract/channel-names.ts).',
            },
          ],
        },
      ],
    },
  },
);

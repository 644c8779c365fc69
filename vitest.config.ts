import { svelte } from '@sveltejs/vite-plugin-svelte';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    pool: 'forks',
    // Two cores here and in CI: more workers only thrash.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits for a state the window or the engine announces; its default second
    // is a race that a loaded machine loses (a settings page read back after a restart).
    expect: { poll: { timeout: 15_000 } },
    reporters: ['default', './test/support/closing-line-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/renderer/**'],
        },
      },
      {
        // The window's state classes are Svelte rune modules: compiled for the client (their
        // effects and subscribers run) and run against Svelte's client runtime, still in Node.
        extends: true,
        plugins: [
          svelte({ configFile: false, dynamicCompileOptions: () => ({ generate: 'client' }) }),
        ],
        ssr: { resolve: { conditions: ['browser'], externalConditions: ['browser'] } },
        test: {
          name: 'renderer',
          include: ['test/renderer/**/*.test.ts'],
        },
      },
    ],
  },
});

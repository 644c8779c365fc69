// The renderer: Svelte 5, built to dist/renderer. The same build runs in both hosts (the
// Electron window, and the headless host serving it on 127.0.0.1), so asset paths are relative.
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [svelte()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'chrome140',
    // One local bundle (about 170 kB gzipped), read from disk or loopback, never a network:
    // splitting it would only add round trips.
    chunkSizeWarningLimit: 700,
  },
});

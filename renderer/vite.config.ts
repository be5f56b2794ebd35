// Vite build of the Svelte renderer. Served by the local listener at "/" (same origin as /api/v2),
// and loaded from file:// or the listener inside Electron, hence base './'.
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
// Dev server / `vite preview` forward /api and /downloads to a running service (default port of main/config.ts).
const apiTarget = process.env.PHASEDESK_API_ORIGIN ?? 'http://127.0.0.1:7431';
const proxy = {
  '/api': { target: apiTarget, changeOrigin: true },
  '/downloads': { target: apiTarget, changeOrigin: true },
};

export default defineConfig({
  root,
  base: './',
  plugins: [svelte()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 800 },
  server: { proxy },
  preview: { proxy },
});

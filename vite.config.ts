import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { bundleReport } from './scripts/bundle-report-plugin.js';

const apiPort = Number(process.env.API_PORT ?? 3001);

export default defineConfig({
  plugins: [react(), bundleReport()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    // Budgets are enforced per route by tests/unit/bundle-budget.test.ts, not by this generic warning.
    chunkSizeWarningLimit: 1024,
  },
  server: {
    port: Number(process.env.PORT ?? 5173),
    proxy: { '/api': `http://127.0.0.1:${apiPort}` },
  },
});

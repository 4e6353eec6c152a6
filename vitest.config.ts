import react from '@vitejs/plugin-react';
import { markdownDocuments } from './scripts/markdown-plugin.js';
import { defineConfig } from 'vitest/config';

/**
 * Three projects: unit (jsdom: pure rules and components), api (the real server over a real database,
 * SQLite always and PostgreSQL when TEST_DATABASE_URL is set), e2e (the built app in the system Chromium).
 */
export default defineConfig({
  plugins: [markdownDocuments(), react()],
  test: {
    reporters: ['default', './tests/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // One copy of react-router and MUI X's directory imports (see STACK.md).
          server: { deps: { inline: [/@refinedev\//, /@mui\/x-/] } },
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

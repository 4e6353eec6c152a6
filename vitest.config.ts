import path from 'node:path';
import react from '@vitejs/plugin-react';
import { markdownDocuments } from './scripts/markdown-plugin.js';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './tests/sequencer.js';

/**
 * Browser files that move the server's clock, read totals over everyone's data, or need a setting of their own
 * get a server of their own, started with these environment overrides (tests/e2e/global-setup.ts).
 * two-factor.test.ts computes authenticator codes from the server's clock and needs STAFF_TWO_FACTOR=required.
 */
const E2E_OWN_SERVER: Record<string, Record<string, string>> = {
  'tests/e2e/sessions.test.ts': {},
  'tests/e2e/subscription.test.ts': {},
  'tests/e2e/admin-users.test.ts': {},
  'tests/e2e/admin-users-tools.test.ts': {},
  'tests/e2e/analytics.test.ts': {},
  'tests/e2e/two-factor.test.ts': { STAFF_TWO_FACTOR: 'required' },
  // Issue 46: renewals declined, retried and paid, and pauses, as the server's clock passes them.
  'tests/e2e/revenue.test.ts': {},
};

/**
 * A browser test waits as long as a user would for what it polls (a price, a field's value): vitest's
 * 1 s default failed the checkout's "due today" on a loaded CI machine while the page was still fetching.
 */
const E2E_EXPECT = { poll: { timeout: 10_000 } };

/**
 * The projects, all at once: unit (jsdom: pure rules and components), api (the real server over a real
 * database, SQLite always and PostgreSQL when TEST_DATABASE_URL is set), e2e (the built app in the system
 * Chromium, on one shared server) and one e2e-own-server:<file> project per file that needs a server of
 * its own.
 */
export default defineConfig({
  plugins: [markdownDocuments(), react()],
  test: {
    reporters: ['default', './tests/summary-reporter.ts'],
    sequence: { sequencer: LongestFirstSequencer },
    // Two cores. The suite is bound by CPU: with the browser files alone, both cores were busy and Chromium's
    // processes had 78% of it (sampled per process, 2026-11-26). A third worker fills the time a file waits.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // One jsdom and one module graph per worker, not per file: 40 s less of the suite's CPU (measured
          // 94 vs 55 CPU seconds for the unit files, 2026-11-26). A file that renders cleans up after each test.
          isolate: false,
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
          // The server's modules are imported once per worker, not once per file: each file starts its own
          // servers over fresh databases, so nothing is shared but code (376 vs 213 CPU seconds, 2026-11-26).
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          exclude: Object.keys(E2E_OWN_SERVER),
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          expect: E2E_EXPECT,
          // Browser files run beside the unit and API files (three workers in all), on one server, each
          // with its own users and data.
          fileParallelism: true,
          // A worker imports the files' shared modules once (Playwright's client, the database helpers that
          // create users): eight small browser files took 89 and 94 CPU s so, 99 and 119 with a module graph
          // per file (2026-11-26). Each file launches its own browser; the helpers keep no state across files
          // but the kept tabs, which are per browser.
          isolate: false,
        },
      },
      // One project per file that needs a server of its own: each project's global setup starts one, so
      // these files run beside the others instead of one after another at the end (six minutes of one
      // busy worker on two cores). `--project 'e2e*'` selects every browser project.
      ...Object.entries(E2E_OWN_SERVER).map(([file, serverEnv]) => ({
        extends: true as const,
        test: {
          name: `e2e-own-server:${path.basename(file, '.test.ts')}`,
          include: [file],
          provide: { serverEnv },
          environment: 'node' as const,
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          expect: E2E_EXPECT,
        },
      })),
    ],
  },
});

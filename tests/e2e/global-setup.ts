import type { TestProject } from 'vitest/node';
import { startPortal } from '../../scripts/portal-process.js';
import { ensureSpaBuilt } from '../../scripts/spa-build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseFile: string;
    adminEmail: string;
    adminPassword: string;
    /** The environment a project's own server starts with on top of the suite's (vitest.config.ts, E2E_OWN_SERVER). */
    serverEnv?: Record<string, string>;
  }
}

/**
 * Builds the SPA if stale and starts the real server (npm start's code path) on a free port and a fresh
 * database, with the project's environment overrides (`serverEnv`, for a file with a server of its own).
 */
export default async function setup(project: TestProject) {
  await ensureSpaBuilt();
  const portal = await startPortal(project.getProvidedContext().serverEnv ?? {});
  project.provide('baseUrl', portal.url);
  project.provide('databaseFile', portal.databaseFile);
  project.provide('adminEmail', portal.adminEmail);
  project.provide('adminPassword', portal.adminPassword);
  return () => portal.stop();
}

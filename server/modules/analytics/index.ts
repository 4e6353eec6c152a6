import type { PortalModule } from '../../context.js';
import { registerAnalyticsJobs } from './jobs.js';
import { analyticsRoutes } from './routes.js';

/**
 * Usage analytics: the desktop's reports and the portal's sign-ups and sales, kept as per-user period
 * figures and rollups, read by the admin dashboard and cohorts.
 */
export const analyticsModule: PortalModule = async (app, context) => {
  const deps = { db: context.db.kysely, dialect: context.db.dialect, clock: context.clock, bus: context.bus };
  registerAnalyticsJobs(context.jobs, deps);
  await app.register(analyticsRoutes, { deps, guards: context.guards });
};

export { ingest, type AnalyticsDeps } from './ingest.js';
export { queueSales } from './jobs.js';
export { rebuildAnalytics } from './rebuild.js';
export type { Report } from './report.js';
export { usageRecordsOf } from './account-data-repo.js';

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { analyticsQuerySchema, analyticsResponseSchema, cohortQuerySchema, cohortResponseSchema, firstDayQuerySchema, firstDayResponseSchema } from '../../../contract/analytics.js';
import type { Guards } from '../../plugins/authentication.js';
import { cohorts, dashboard, firstDay, type AnalyticsReadDeps } from './dashboard.js';

/** Issue 47: the figures are the analysts' (and admins'). */
const READ = { permission: 'analytics.read' } as const;

/** The admin dashboard's figures, where they start, and sign-up cohorts, read from the rollups. */
export const analyticsRoutes: FastifyPluginAsyncZod<{ deps: AnalyticsReadDeps; guards: Guards }> = async (app, { deps, guards }) => {
  app.get('/analytics', { onRequest: guards.staff, config: READ, schema: { querystring: analyticsQuerySchema, response: { 200: analyticsResponseSchema } } }, async (request) =>
    dashboard(deps, request.query),
  );
  app.get('/analytics/cohorts', { onRequest: guards.staff, config: READ, schema: { querystring: cohortQuerySchema, response: { 200: cohortResponseSchema } } }, async (request) =>
    cohorts(deps, request.query),
  );
  app.get('/analytics/first-day', { onRequest: guards.staff, config: READ, schema: { querystring: firstDayQuerySchema, response: { 200: firstDayResponseSchema } } }, async (request) =>
    firstDay(deps, request.query),
  );
};

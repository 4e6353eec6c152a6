import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { analyticsQuerySchema, analyticsResponseSchema, cohortQuerySchema, cohortResponseSchema } from '../../../contract/analytics.js';
import type { Guards } from '../../plugins/authentication.js';
import { cohorts, dashboard, type AnalyticsReadDeps } from './queries.js';

/** The admin dashboard's figures and sign-up cohorts, read from the rollups. */
export const analyticsRoutes: FastifyPluginAsyncZod<{ deps: AnalyticsReadDeps; guards: Guards }> = async (app, { deps, guards }) => {
  app.get('/analytics', { onRequest: guards.admin, schema: { querystring: analyticsQuerySchema, response: { 200: analyticsResponseSchema } } }, async (request) =>
    dashboard(deps, request.query),
  );
  app.get('/analytics/cohorts', { onRequest: guards.admin, schema: { querystring: cohortQuerySchema, response: { 200: cohortResponseSchema } } }, async (request) =>
    cohorts(deps, request.query),
  );
};
